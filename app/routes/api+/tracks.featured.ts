import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { getViewer } from '~/auth/auth.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { getFeaturedTrackFor } from '~/models/track.server';

/**
 * GET /api/tracks/featured — the featured track (or this week's under weekly rotation); 404
 * when none. Locked (no `audioFile`) when it is members-only and the caller has no session.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const track = await getFeaturedTrackFor(await getViewer(request));
    return track
      ? apiJson(track, { headers: publicCacheHeaders(request) })
      : apiError(404, 'No featured track available.');
  });
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
