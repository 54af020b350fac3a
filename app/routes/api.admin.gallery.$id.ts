import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import {
  deleteGalleryImage,
  getGalleryImage,
  updateGalleryImage,
  type GalleryImageWrite,
} from '~/models/gallery-image.server';
import { GalleryFieldsSchema } from '~/schemas/gallery';
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
const NOT_FOUND = 'Gallery image not found';

/**
 * PUT /api/admin/gallery/{id} — multipart: title, description? (absent clears it), image?
 * (only when it changes; otherwise the current file is kept). 200 with the image.
 * DELETE /api/admin/gallery/{id} — 204; the file is deleted too. 404 for an unknown id.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    requireMethod(request, ALLOWED);
    const id = requireId(params.id, 'Gallery image');

    if (request.method.toUpperCase() === 'DELETE') {
      return (await deleteGalleryImage(id)) ? noContent() : apiError(404, NOT_FOUND);
    }
    if (!(await getGalleryImage(id))) return apiError(404, NOT_FOUND);

    const { fields, files, fileErrors } = await parseMultipartUpload(request, {
      image: { kind: 'image' },
    });
    let saved = false;
    try {
      const parsed = GalleryFieldsSchema.safeParse(fields);
      const errors = mergeFieldErrors(
        parsed.success ? {} : issuesToFields(parsed.error.issues),
        fileErrors,
      );
      if (!parsed.success || Object.keys(errors).length > 0) return validationError(errors);
      const update: Partial<GalleryImageWrite> = {
        title: parsed.data.title,
        description: parsed.data.description ?? null,
      };
      if (files.image) {
        await prepareUploadedImage(files.image.path);
        update.imageUrl = files.image.url;
      }
      const image = await updateGalleryImage(id, update);
      if (!image) return apiError(404, NOT_FOUND);
      saved = true;
      return apiJson(image);
    } finally {
      if (!saved) await discardUploads(files);
    }
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return methodNotAllowed(ALLOWED);
  });
