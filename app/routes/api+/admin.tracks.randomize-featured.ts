import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminApiAction, adminMethodNotAllowed, apiError, apiJson } from '~/api/api.server';
import { randomizeFeaturedTrack } from '~/models/track-writes.server';

/**
 * POST /api/admin/tracks/randomize-featured — picks one track at random and makes it the
 * only featured one; answers with that track (incl. title). 404 when there are no tracks.
 */
export function action({ request }: ActionFunctionArgs) {
  return adminApiAction(request, ['POST'], async () => {
    const track = await randomizeFeaturedTrack();
    return track ? apiJson(track) : apiError(404, 'There are no tracks to feature');
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return adminMethodNotAllowed(request, ['POST']);
}
