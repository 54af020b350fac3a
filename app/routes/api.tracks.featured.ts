import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { getFeaturedTrack } from '~/models/track.server';
import { apiError, apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';

/** GET /api/tracks/featured — the featured track (or this week's under weekly rotation); 404 when none. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    const track = await getFeaturedTrack();
    return track
      ? apiJson(track, { headers: publicCacheHeaders(request) })
      : apiError(404, 'No featured track available.');
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['GET']));
