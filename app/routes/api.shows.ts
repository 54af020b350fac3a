import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { listShows } from '~/models/show.server';

/** GET /api/shows — every show, ascending by date then time. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () =>
    apiJson(await listShows(), { headers: publicCacheHeaders(request) }),
  );

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['GET']));
