import {
  createGalleryImage,
  getGalleryImage,
  updateGalleryImage,
} from '~/models/gallery-image.server';
import { type GalleryFields, GalleryFieldsSchema, IMAGE_REQUIRED_GALLERY } from '~/schemas/gallery';
import type { GalleryImageJSON } from '~/types/entities';

import {
  type ImageEntityForm,
  type ImageUploadFlow,
  uploadImageEntity,
} from './upload-flow.server';

/**
 * Saving a gallery image, for the admin form (`submitGalleryForm`) and /api/admin/gallery
 * (`saveGalleryImage`). The flow itself is app/services/upload-flow.server.ts.
 */

const GALLERY_FLOW: ImageUploadFlow<GalleryFields, GalleryImageJSON> = {
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

const FORM: ImageEntityForm<GalleryImageJSON> = {
  failed: { create: 'Failed to add image', update: 'Failed to update image' },
  notFound: 'Image not found',
  missingFiles: IMAGE_REQUIRED_GALLERY,
  saved: {
    create: (g) => ({
      title: 'Image added',
      description: `"${g.title}" was added to the gallery.`,
    }),
    update: (g) => ({ title: 'Image updated', description: `"${g.title}" was updated.` }),
  },
};

/**
 * Add or edit a gallery image from a multipart request (the image is required on create):
 * `saveGalleryImage` for /api/admin/gallery, `submitGalleryForm` and `galleryFormAction` (its routes) for the admin's dialogs.
 */
export const {
  save: saveGalleryImage,
  submitForm: submitGalleryForm,
  formAction: galleryFormAction,
  editLoader: galleryEditLoader,
} = uploadImageEntity(GALLERY_FLOW, FORM);
