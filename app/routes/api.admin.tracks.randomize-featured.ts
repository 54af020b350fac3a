import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import {
  adminMethodNotAllowed,
  apiError,
  apiJson,
  handleApi,
  requireMethod,
} from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';
import { randomizeFeaturedTrack } from '~/models/track.server';

/**
 * POST /api/admin/tracks/randomize-featured — picks one track at random and makes it the
 * only featured one; answers with that track (incl. title). 404 when there are no tracks.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    requireMethod(request, ['POST']);
    const track = await randomizeFeaturedTrack();
    return track ? apiJson(track) : apiError(404, 'There are no tracks to feature');
  });

export const loader = ({ request }: LoaderFunctionArgs) => adminMethodNotAllowed(request, ['POST']);
