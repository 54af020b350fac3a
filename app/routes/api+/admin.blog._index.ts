import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed } from '~/api/api.server';
import { createAction } from '~/api/upload-routes.server';
import { saveBlogPost } from '~/services/blog-save.server';

/**
 * POST /api/admin/blog — multipart: title, slug, content, excerpt, category (NEWS, EVENTS,
 * REVIEWS; default NEWS), image (JPEG, PNG or WEBP, required). 201 with the post;
 * 409 when the slug is taken.
 */
export function action({ request }: ActionFunctionArgs) {
  return createAction(request, saveBlogPost);
}

export function loader({ request }: LoaderFunctionArgs) {
  return adminMethodNotAllowed(request, ['POST']);
}
