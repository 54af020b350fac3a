import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { getTheme } from '~/models/theme.server';
import { apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';

/** GET /api/theme — the site's theme settings. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () =>
    apiJson(await getTheme(), { headers: publicCacheHeaders(request) }),
  );

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['GET']));
