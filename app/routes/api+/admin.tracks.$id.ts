import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, readJsonBody } from '~/api/api.server';
import { itemAction, itemLoader } from '~/api/upload-routes.server';
import { getTrack } from '~/models/track.server';
import { setTrackFeatured } from '~/models/track-writes.server';
import { FeaturedToggleSchema } from '~/schemas/track';
import { removeTrack, saveTrack } from '~/services/track-save.server';

const NOT_FOUND = 'Track not found';

/**
 * PUT /api/admin/tracks/{id}
 * - JSON `{ featured: boolean }`: sets the featured flag (other tracks are unchanged).
 * - multipart, the fields of POST: files are optional; without a new file the current one
 *   is kept (coverImageUrl / audioFileUrl are accepted and need not be sent). Absent
 *   `type`, `featured` and `duration` keep their values (an empty duration with a new
 *   audio file is read from it); an absent `album` clears it, an absent `artist` resets
 *   it to the collective's name.
 * DELETE /api/admin/tracks/{id} — 204; the track's files are deleted too.
 * 404 for an unknown id.
 */
export function action({ request, params }: ActionFunctionArgs) {
  return itemAction(request, params.id, {
    what: 'Track',
    remove: removeTrack,
    save: saveTrack,
    json: async (id) => {
      if (!(await getTrack(id))) return apiError(404, NOT_FOUND);
      const { featured } = await readJsonBody(request, FeaturedToggleSchema);
      const track = await setTrackFeatured(id, featured);
      return track ? apiJson(track) : apiError(404, NOT_FOUND);
    },
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return itemLoader(request);
}
