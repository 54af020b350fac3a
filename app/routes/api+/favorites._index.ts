import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiJson, handleApi, readJsonBody, requireMethod } from '~/api/api.server';
import { requireUserApi } from '~/auth/auth.server';
import { listFavouriteTrackIds, mergeFavourites } from '~/models/favourite.server';
import { FavouritesMergeSchema } from '~/schemas/favourites';

/** GET /api/favorites — the logged-in member's favourite track ids, oldest first; 401 without a session. */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const user = await requireUserApi(request);
    return apiJson(
      { trackIds: await listFavouriteTrackIds(user.id) },
      { headers: { 'Cache-Control': 'private, no-store' } },
    );
  });
}

/**
 * POST /api/favorites — JSON `{ trackIds: number[] }`: favourites a browser kept before its
 * visitor logged in, merged into the account (the union; unknown ids are dropped). 200 with
 * the account's list.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => {
    const user = await requireUserApi(request);
    requireMethod(request, ['POST']);
    const { trackIds } = await readJsonBody(request, FavouritesMergeSchema);
    return apiJson({ trackIds: await mergeFavourites(user.id, trackIds) });
  });
}
