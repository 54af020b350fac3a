import {
  createGalleryImage,
  getGalleryImage,
  updateGalleryImage,
} from '~/models/gallery-image.server';
import { type GalleryFields, GalleryFieldsSchema, IMAGE_REQUIRED_GALLERY } from '~/schemas/gallery';
import type { GalleryImageJSON } from '~/types/entities';
import type { SaveClient, SaveResult, SaveTarget } from '~/types/save-flow';

import {
  answerForm,
  FORM_CLIENT,
  type FormTexts,
  imageFieldErrors,
  ONE_IMAGE,
  saveUpload,
  type UploadFlow,
} from './upload-flow.server';

/**
 * Saving a gallery image, for the admin form (`submitGalleryForm`) and /api/admin/gallery
 * (`saveGalleryImage`). The flow itself is app/services/upload-flow.server.ts.
 */

const GALLERY_FLOW: UploadFlow<GalleryFields, GalleryImageJSON> = {
  ...ONE_IMAGE,
  schema: GalleryFieldsSchema,
  load: getGalleryImage,
  save: ({ value, files, existing }) => {
    const write = { title: value.title, description: value.description ?? null };
    return existing
      ? updateGalleryImage(existing.id, {
          ...write,
          ...(files.image ? { imageUrl: files.image.url } : {}),
        })
      : createGalleryImage({ ...write, imageUrl: files.image.url });
  },
};

const FORM_TEXTS: FormTexts<GalleryImageJSON> = {
  failed: { create: 'Failed to add image', update: 'Failed to update image' },
  notFound: 'Image not found',
  missingFiles: IMAGE_REQUIRED_GALLERY,
  fileErrors: imageFieldErrors,
  saved: {
    create: (g) => ({
      title: 'Image added',
      description: `"${g.title}" was added to the gallery.`,
    }),
    update: (g) => ({ title: 'Image updated', description: `"${g.title}" was updated.` }),
  },
};

/** Add or edit a gallery image from a multipart request (the image is required on create). */
export const saveGalleryImage = <S>(
  request: Request,
  target: SaveTarget,
  client: SaveClient<S>,
): Promise<SaveResult<GalleryImageJSON, S>> => saveUpload(request, target, GALLERY_FLOW, client);

/**
 * The add/edit gallery image action (admin already checked): a redirect with a toast, or
 * the form with its errors.
 */
export async function submitGalleryForm(request: Request, target: SaveTarget, listUrl: string) {
  return answerForm(
    await saveGalleryImage(request, target, FORM_CLIENT),
    target,
    FORM_TEXTS,
    listUrl,
  );
}
