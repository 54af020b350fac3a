import { parseWithZod } from '@conform-to/zod';
import { data } from '@remix-run/node';
import { IMAGE_REQUIRED_GALLERY } from '~/components/admin/gallery-form';
import { createGalleryImage, updateGalleryImage } from '~/models/gallery-image.server';
import { GalleryFieldsSchema, IMAGE_FILE_MESSAGE } from '~/schemas/gallery';
import type { GalleryImageJSON } from '~/types/entities';
import { prepareUploadedImage } from './image-derivatives.server';
import { redirectWithToast } from './toast.server';
import {
  errorMessage,
  errorToast,
  readUploadForm,
  type FormActionResult,
} from './upload-form.server';
import { UPLOAD_MESSAGES, discardUploads } from './uploads.server';

export const IMAGE_UPLOAD = { image: { kind: 'image' } } as const;

/** SPEC §5's image message for a wrong type; the size message stays specific. */
export const imageFieldErrors = (errors: string[] | undefined) =>
  errors?.map((e) => (e === UPLOAD_MESSAGES.imageType ? IMAGE_FILE_MESSAGE : e));

/**
 * The add/edit gallery image action (admin already checked): stream the image, validate,
 * save, redirect with a toast; on failure the new file is deleted and the form comes back.
 */
export async function submitGalleryForm(
  request: Request,
  existing: GalleryImageJSON | null,
  listUrl: string,
) {
  const failTitle = existing ? 'Failed to update image' : 'Failed to add image';
  const upload = await readUploadForm(request, IMAGE_UPLOAD);
  if (!upload.ok) {
    return data<FormActionResult>(
      {
        result: { status: 'error', error: { '': [upload.message] } },
        alertTitle: failTitle,
        toast: errorToast(failTitle, upload.message),
      },
      { status: upload.status },
    );
  }
  const { formData, files, fileErrors } = upload;
  const submission = parseWithZod(formData, { schema: GalleryFieldsSchema });
  const imageErrors = imageFieldErrors(fileErrors.image);
  const missing = !existing && !files.image && !imageErrors;

  if (submission.status !== 'success' || imageErrors || missing) {
    await discardUploads(files);
    const fieldErrors: Record<string, string[]> = {};
    if (imageErrors) fieldErrors.image = imageErrors;
    if (missing) fieldErrors.image = [IMAGE_FILE_MESSAGE];
    const first =
      imageErrors?.[0] ??
      Object.values(submission.status === 'error' ? (submission.error ?? {}) : {}).flat()[0];
    return data<FormActionResult>(
      {
        result: submission.reply({
          fieldErrors,
          formErrors: missing ? [IMAGE_REQUIRED_GALLERY.description] : undefined,
        }),
        alertTitle: missing ? IMAGE_REQUIRED_GALLERY.title : failTitle,
        toast: missing
          ? errorToast(IMAGE_REQUIRED_GALLERY.title, IMAGE_REQUIRED_GALLERY.description)
          : errorToast(failTitle, first ?? 'Please check the form'),
      },
      { status: 400 },
    );
  }

  let saved: GalleryImageJSON | null;
  try {
    const write = {
      title: submission.value.title,
      description: submission.value.description ?? null,
      ...(files.image ? { imageUrl: files.image.url } : {}),
    };
    saved = existing
      ? await updateGalleryImage(existing.id, write)
      : await createGalleryImage({ ...write, imageUrl: files.image.url });
    if (!saved) throw new Error('Image not found');
  } catch (error) {
    await discardUploads(files);
    const message = errorMessage(error);
    return data<FormActionResult>(
      {
        result: submission.reply({ formErrors: [message] }),
        alertTitle: failTitle,
        toast: errorToast(failTitle, message),
      },
      { status: 400 },
    );
  }
  if (files.image) await prepareUploadedImage(files.image.path).catch(() => undefined);
  return redirectWithToast(listUrl, {
    type: 'success',
    title: existing ? 'Image updated' : 'Image added',
    description: existing
      ? `"${saved.title}" was updated.`
      : `"${saved.title}" was added to the gallery.`,
  });
}
