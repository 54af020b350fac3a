import { z } from 'zod';

import { LIMITS, optionalText, requiredText } from './common';

export const GalleryFieldsSchema = z.object({
  title: requiredText('Title is required', LIMITS.title),
  description: optionalText(LIMITS.description),
});
export type GalleryFields = z.infer<typeof GalleryFieldsSchema>;

/** Shown (toast and form alert) when a new gallery image is submitted without its file. */
export const IMAGE_REQUIRED_GALLERY = {
  title: 'Image is required',
  description: 'Please select an image file to upload',
} as const;
