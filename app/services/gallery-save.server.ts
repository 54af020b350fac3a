import {
  createGalleryImage,
  getGalleryImage,
  updateGalleryImage,
} from '~/models/gallery-image.server';
import { type GalleryFields, GalleryFieldsSchema } from '~/schemas/gallery';
import type { GalleryImageJSON } from '~/types/entities';

import {
  ONE_IMAGE,
  type SaveClient,
  type SaveResult,
  type SaveTarget,
  saveUpload,
  type UploadFlow,
} from './upload-save.server';

export const GALLERY_FLOW: UploadFlow<GalleryFields, GalleryImageJSON> = {
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

/** Add or edit a gallery image from a multipart request (the image is required on create). */
export const saveGalleryImage = <S>(
  request: Request,
  target: SaveTarget,
  client: SaveClient<S>,
): Promise<SaveResult<GalleryImageJSON, S>> => saveUpload(request, target, GALLERY_FLOW, client);
