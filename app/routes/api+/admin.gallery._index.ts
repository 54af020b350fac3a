import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed } from '~/api/api.server';
import { createAction } from '~/api/upload-routes.server';
import { saveGalleryImage } from '~/services/gallery-save.server';

/**
 * POST /api/admin/gallery — multipart: title, description?, image (JPEG, PNG or WEBP,
 * required). 201 with the gallery image.
 */
export function action({ request }: ActionFunctionArgs) {
  return createAction(request, saveGalleryImage);
}

export function loader({ request }: LoaderFunctionArgs) {
  return adminMethodNotAllowed(request, ['POST']);
}
