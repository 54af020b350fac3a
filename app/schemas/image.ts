/**
 * The texts of an image upload shared by the gallery and the blog (each keeps its own
 * "Image is required" alert in its schema).
 */

/** A required image that is missing or not an image, as the gallery and blog forms and their API say it. */
export const IMAGE_FILE_MESSAGE =
  'Image file is required and must be a valid image (JPEG, PNG, or WEBP)';
