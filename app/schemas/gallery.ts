import { z } from 'zod';
import { LIMITS, optionalText, requiredText } from './common';

export const GalleryFieldsSchema = z.object({
  title: requiredText('Title is required', LIMITS.title),
  description: optionalText(LIMITS.description),
});
export type GalleryFields = z.infer<typeof GalleryFieldsSchema>;

export const IMAGE_FILE_MESSAGE =
  'Image file is required and must be a valid image (JPEG, PNG, or WEBP)';
