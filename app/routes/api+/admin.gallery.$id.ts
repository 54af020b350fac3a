import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { itemAction, itemLoader } from '~/api/upload-routes.server';
import { deleteGalleryImage } from '~/models/gallery-image.server';
import { saveGalleryImage } from '~/services/gallery-save.server';

/**
 * PUT /api/admin/gallery/{id} — multipart: title, description? (absent clears it), image?
 * (only when it changes; otherwise the current file is kept). 200 with the image.
 * DELETE /api/admin/gallery/{id} — 204; the file is deleted too. 404 for an unknown id.
 */
export function action({ request, params }: ActionFunctionArgs) {
  return itemAction(request, params.id, {
    what: 'Gallery image',
    remove: deleteGalleryImage,
    save: saveGalleryImage,
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return itemLoader(request);
}
