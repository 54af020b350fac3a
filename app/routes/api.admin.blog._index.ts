import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { SlugTakenError, createBlogPost } from '~/models/blog-post.server';
import { BlogFieldsSchema } from '~/schemas/blog';
import { IMAGE_FILE_MESSAGE } from '~/schemas/gallery';
import {
  apiError,
  apiJson,
  handleApi,
  issuesToFields,
  mergeFieldErrors,
  methodNotAllowed,
  requireAdminRequest,
  requireMethod,
  validationError,
} from '~/utils/api.server';
import { prepareUploadedImage } from '~/utils/image-derivatives.server';
import { discardUploads, parseMultipartUpload } from '~/utils/uploads.server';

/**
 * POST /api/admin/blog — multipart: title, slug, content, excerpt, category (NEWS, EVENTS,
 * REVIEWS; default NEWS), image (JPEG, PNG or WEBP, required). 201 with the post;
 * 409 when the slug is taken.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    requireMethod(request, ['POST']);
    const { fields, files, fileErrors } = await parseMultipartUpload(request, {
      image: { kind: 'image' },
    });
    let saved = false;
    try {
      const parsed = BlogFieldsSchema.safeParse(fields);
      const image = files.image;
      const errors = mergeFieldErrors(
        parsed.success ? {} : issuesToFields(parsed.error.issues),
        fileErrors,
        !image && !fileErrors.image ? { image: [IMAGE_FILE_MESSAGE] } : {},
      );
      if (!parsed.success || !image || Object.keys(errors).length > 0) {
        return validationError(errors);
      }
      await prepareUploadedImage(image.path);
      try {
        const post = await createBlogPost({ ...parsed.data, imageUrl: image.url });
        saved = true;
        return apiJson(post, { status: 201 });
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
    return methodNotAllowed(['POST']);
  });
