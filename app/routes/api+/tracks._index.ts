import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { handleApi, methodNotAllowed } from '~/api/api.server';
import { apiListResponse } from '~/api/api-lists.server';
import { getViewer } from '~/auth/auth.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { trackList, trackViewOf } from '~/models/track.server';

/**
 * GET /api/tracks[?limit=&cursor=] — every track, newest first, streamed; or a page of them
 * with `Link: <…>; rel="next"` (docs/api.md). Members-only tracks are listed for everyone;
 * without a logged-in session they come with `"locked": true` and no `audioFile`.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const viewer = await getViewer(request);
    return apiListResponse(request, trackList(), (doc) => trackViewOf(viewer, doc), {
      headers: publicCacheHeaders(request),
    });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
