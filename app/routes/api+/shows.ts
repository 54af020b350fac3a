import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { handleApi, methodNotAllowed } from '~/api/api.server';
import { apiListResponse } from '~/api/api-lists.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { showList, streamShowsInOrder, toShowJSON } from '~/models/show.server';

/**
 * GET /api/shows — every show, ascending by date then time, streamed; with `limit`/`cursor` a
 * page by date then id, with `Link: <…>; rel="next"` (docs/api.md).
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () =>
    apiListResponse(request, showList(), toShowJSON, {
      stream: streamShowsInOrder,
      headers: publicCacheHeaders(request),
    }),
  );
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
