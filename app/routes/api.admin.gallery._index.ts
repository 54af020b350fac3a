import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { createGalleryImage } from '~/models/gallery-image.server';
import { GalleryFieldsSchema, IMAGE_FILE_MESSAGE } from '~/schemas/gallery';
import {
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
 * POST /api/admin/gallery — multipart: title, description?, image (JPEG, PNG or WEBP,
 * required). 201 with the gallery image.
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
      const parsed = GalleryFieldsSchema.safeParse(fields);
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
      const created = await createGalleryImage({
        title: parsed.data.title,
        description: parsed.data.description ?? null,
        imageUrl: image.url,
      });
      saved = true;
      return apiJson(created, { status: 201 });
    } finally {
      if (!saved) await discardUploads(files);
    }
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return methodNotAllowed(['POST']);
  });
