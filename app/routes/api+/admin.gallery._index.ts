import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed } from '~/api/api.server';
import { createAction } from '~/api/upload-routes.server';
import { saveGalleryImage } from '~/services/gallery-save.server';

/**
 * POST /api/admin/gallery — multipart: title, description?, image (JPEG, PNG or WEBP,
 * required). 201 with the gallery image.
 */
export const action = ({ request }: ActionFunctionArgs) => createAction(request, saveGalleryImage);

export const loader = ({ request }: LoaderFunctionArgs) => adminMethodNotAllowed(request, ['POST']);
