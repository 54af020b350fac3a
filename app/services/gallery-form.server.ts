import { UPLOAD_MESSAGES } from '~/files/uploads.server';
import { IMAGE_REQUIRED_GALLERY } from '~/schemas/gallery';
import { IMAGE_FILE_MESSAGE } from '~/schemas/gallery';
import { saveGalleryImage } from '~/services/gallery-save.server';
import type { SaveTarget } from '~/services/upload-save.server';
import type { GalleryImageJSON } from '~/types/entities';
import type { FieldErrors } from '~/types/forms';

import { answerForm, FORM_CLIENT, type FormTexts } from './upload-form.server';

/** The gallery's one message for a missing or wrong-type image; the size message stays specific. */
export const imageFieldErrors = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([name, messages]) => [
      name,
      messages.map((e) => (e === UPLOAD_MESSAGES.imageType ? IMAGE_FILE_MESSAGE : e)),
    ]),
  );

const TEXTS: FormTexts<GalleryImageJSON> = {
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

/**
 * The add/edit gallery image action (admin already checked): the shared save flow, then a
 * redirect with a toast, or the form with its errors.
 */
export async function submitGalleryForm(request: Request, target: SaveTarget, listUrl: string) {
  return answerForm(await saveGalleryImage(request, target, FORM_CLIENT), target, TEXTS, listUrl);
}
