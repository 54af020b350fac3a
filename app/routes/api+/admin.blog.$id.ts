import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { itemAction, itemLoader } from '~/api/upload-routes.server';
import { removeBlogPost, saveBlogPost } from '~/services/blog-save.server';

/**
 * PUT /api/admin/blog/{id} — multipart, the fields of POST; the image only when it
 * changes (otherwise the current file is kept); an absent category keeps the current one.
 * 200 with the post; 409 when the slug belongs to another post.
 * DELETE /api/admin/blog/{id} — 204; the image is deleted too. 404 for an unknown id.
 */
export function action({ request, params }: ActionFunctionArgs) {
  return itemAction(request, params.id, {
    what: 'Blog post',
    remove: removeBlogPost,
    save: saveBlogPost,
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return itemLoader(request);
}
