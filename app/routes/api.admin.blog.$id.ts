import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import {
  SlugTakenError,
  deleteBlogPost,
  getBlogPost,
  updateBlogPost,
  type BlogPostWrite,
} from '~/models/blog-post.server';
import { BlogFieldsSchema } from '~/schemas/blog';
import {
  apiError,
  apiJson,
  handleApi,
  issuesToFields,
  mergeFieldErrors,
  methodNotAllowed,
  noContent,
  requireAdminRequest,
  requireId,
  requireMethod,
  validationError,
} from '~/utils/api.server';
import { prepareUploadedImage } from '~/utils/image-derivatives.server';
import { discardUploads, parseMultipartUpload } from '~/utils/uploads.server';

const ALLOWED = ['PUT', 'DELETE'] as const;
const NOT_FOUND = 'Blog post not found';

/**
 * PUT /api/admin/blog/{id} — multipart, the fields of POST; the image only when it
 * changes (otherwise the current file is kept); an absent category keeps the current one.
 * 200 with the post; 409 when the slug belongs to another post.
 * DELETE /api/admin/blog/{id} — 204; the image is deleted too. 404 for an unknown id.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    requireMethod(request, ALLOWED);
    const id = requireId(params.id, 'Blog post');

    if (request.method.toUpperCase() === 'DELETE') {
      return (await deleteBlogPost(id)) ? noContent() : apiError(404, NOT_FOUND);
    }
    if (!(await getBlogPost(id))) return apiError(404, NOT_FOUND);

    const { fields, files, fileErrors } = await parseMultipartUpload(request, {
      image: { kind: 'image' },
    });
    let saved = false;
    try {
      const parsed = BlogFieldsSchema.safeParse(fields);
      const errors = mergeFieldErrors(
        parsed.success ? {} : issuesToFields(parsed.error.issues),
        fileErrors,
      );
      if (!parsed.success || Object.keys(errors).length > 0) return validationError(errors);
      const { category, ...rest } = parsed.data;
      const update: Partial<BlogPostWrite> = { ...rest };
      if ('category' in fields) update.category = category;
      if (files.image) {
        await prepareUploadedImage(files.image.path);
        update.imageUrl = files.image.url;
      }
      try {
        const post = await updateBlogPost(id, update);
        if (!post) return apiError(404, NOT_FOUND);
        saved = true;
        return apiJson(post);
      } catch (error) {
        if (error instanceof SlugTakenError) {
          return apiError(409, error.message, { slug: [error.message] });
        }
        throw error;
      }
    } finally {
      if (!saved) await discardUploads(files);
    }
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return methodNotAllowed(ALLOWED);
  });
