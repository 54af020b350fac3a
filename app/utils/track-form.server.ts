import { parseWithZod } from '@conform-to/zod';
import { data } from '@remix-run/node';
import { MISSING_FILES } from '~/components/admin/track-form';
import { createTrack, updateTrack } from '~/models/track.server';
import { TrackFieldsSchema } from '~/schemas/track';
import type { TrackJSON } from '~/types/entities';
import { prepareUploadedImage } from './image-derivatives.server';
import { redirectWithToast } from './toast.server';
import { uploadPathFromUrl } from './upload-files.server';
import {
  errorMessage,
  errorToast,
  readUploadForm,
  type FormActionResult,
} from './upload-form.server';
import { discardUploads, readAudioDuration } from './uploads.server';

export const TRACK_UPLOADS = {
  coverImage: { kind: 'image' },
  audioFile: { kind: 'audio' },
} as const;

/**
 * The add/edit track action (the route has already checked the admin): stream the files,
 * validate the fields, fill the duration from the audio when it was left empty, save, and
 * redirect to the list with a toast. On any failure the new files are deleted and the form
 * comes back with its errors (status 400, or 413 for a body over the cap).
 */
export async function submitTrackForm(
  request: Request,
  existing: TrackJSON | null,
  listUrl: string,
) {
  const failTitle = existing ? 'Failed to update track' : 'Failed to create track';
  const upload = await readUploadForm(request, TRACK_UPLOADS);
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
  const submission = parseWithZod(formData, { schema: TrackFieldsSchema });

  const fieldErrors: Record<string, string[]> = { ...fileErrors };
  let missing = false;
  if (!existing) {
    if (!files.coverImage && !fieldErrors.coverImage) {
      fieldErrors.coverImage = ['Cover image is required'];
      missing = true;
    }
    if (!files.audioFile && !fieldErrors.audioFile) {
      fieldErrors.audioFile = ['Audio file is required'];
      missing = true;
    }
  }

  if (submission.status !== 'success' || Object.keys(fieldErrors).length > 0) {
    await discardUploads(files);
    const fieldMessages = Object.values(fieldErrors).flat();
    const first =
      fieldMessages[0] ??
      Object.values(submission.status === 'error' ? (submission.error ?? {}) : {}).flat()[0];
    return data<FormActionResult>(
      {
        result: submission.reply({
          fieldErrors,
          formErrors: missing ? [MISSING_FILES.description] : undefined,
        }),
        alertTitle: missing ? MISSING_FILES.title : failTitle,
        toast: missing
          ? errorToast(MISSING_FILES.title, MISSING_FILES.description)
          : errorToast(failTitle, first ?? 'Please check the form'),
      },
      { status: 400 },
    );
  }

  const fields = submission.value;
  let duration = fields.duration;
  if (!duration) {
    const audioPath = files.audioFile?.path ?? uploadPathFromUrl(existing?.audioFile);
    duration =
      (audioPath ? await readAudioDuration(audioPath) : null) ?? existing?.duration ?? '0:00';
  }

  let saved: TrackJSON | null;
  try {
    const write = {
      title: fields.title,
      artist: fields.artist ?? null,
      album: fields.album ?? null,
      type: fields.type,
      duration,
      featured: fields.featured,
      ...(files.coverImage ? { coverImage: files.coverImage.url } : {}),
      ...(files.audioFile ? { audioFile: files.audioFile.url } : {}),
    };
    saved = existing
      ? await updateTrack(existing.id, write)
      : await createTrack({
          ...write,
          coverImage: files.coverImage.url,
          audioFile: files.audioFile.url,
        });
    if (!saved) throw new Error('Track not found');
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

  if (files.coverImage) {
    await prepareUploadedImage(files.coverImage.path).catch(() => undefined);
  }
  return redirectWithToast(listUrl, {
    type: 'success',
    title: existing ? 'Track updated' : 'Track created',
    description: existing
      ? `"${saved.title}" was updated.`
      : `"${saved.title}" was added to the catalogue.`,
  });
}
