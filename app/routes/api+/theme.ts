import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { getTheme } from '~/models/theme.server';

/** GET /api/theme — the site's theme settings. */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () =>
    apiJson(await getTheme(), { headers: publicCacheHeaders(request) }),
  );
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
