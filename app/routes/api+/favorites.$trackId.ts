import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import {
  apiError,
  apiJson,
  handleApi,
  methodNotAllowed,
  noContent,
  requireId,
  requireMethod,
} from '~/api/api.server';
import { requireUserApi } from '~/auth/auth.server';
import { addFavourite, listFavouriteTrackIds, removeFavourite } from '~/models/favourite.server';

const ALLOWED = ['PUT', 'DELETE'] as const;

/**
 * PUT /api/favorites/{trackId} — add the track to the member's favourites (adding twice is
 * fine); 200 with `{ trackIds }`, 404 `Track not found`.
 * DELETE /api/favorites/{trackId} — 204 (also when it was not a favourite).
 * 401 without a session.
 */
export function action({ request, params }: ActionFunctionArgs) {
  return handleApi(request, async () => {
    const user = await requireUserApi(request);
    requireMethod(request, ALLOWED);
    const trackId = requireId(params.trackId, 'Track');
    if (request.method.toUpperCase() === 'DELETE') {
      await removeFavourite(user.id, trackId);
      return noContent();
    }
    if (!(await addFavourite(user.id, trackId))) return apiError(404, 'Track not found');
    return apiJson({ trackIds: await listFavouriteTrackIds(user.id) });
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    await requireUserApi(request);
    return methodNotAllowed(ALLOWED);
  });
}
