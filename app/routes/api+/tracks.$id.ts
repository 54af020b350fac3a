import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, handleApi, methodNotAllowed, requireId } from '~/api/api.server';
import { getViewer } from '~/auth/auth.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { getTrackFor } from '~/models/track.server';

/**
 * GET /api/tracks/{id} — one track; 404 for an unknown id. A members-only track asked for
 * without a logged-in session comes with `"locked": true` and no `audioFile`.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const id = requireId(params.id, 'Track');
    const track = await getTrackFor(await getViewer(request), id);
    return track
      ? apiJson(track, { headers: publicCacheHeaders(request) })
      : apiError(404, 'Track not found');
  });
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
