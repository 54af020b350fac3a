import type { ActionFunctionArgs } from '@remix-run/node';
import { listGalleryImages } from '~/models/gallery-image.server';
import { apiJson, handleApi, methodNotAllowed } from '~/utils/api.server';

/** GET /api/gallery — every gallery image, newest first. */
export const loader = () => handleApi(async () => apiJson(await listGalleryImages()));

export const action = (_args: ActionFunctionArgs) =>
  handleApi(async () => methodNotAllowed(['GET']));
