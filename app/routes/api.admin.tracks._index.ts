import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { createTrack } from '~/models/track.server';
import { TrackFieldsSchema } from '~/schemas/track';
import {
  apiJson,
  handleApi,
  issuesToFields,
  mergeFieldErrors,
  methodNotAllowed,
  requireAdminRequest,
  requireMethod,
  validationError,
  type FieldErrors,
} from '~/utils/api.server';
import { prepareUploadedImage } from '~/utils/image-derivatives.server';
import {
  discardUploads,
  parseMultipartUpload,
  readAudioDuration,
  type UploadSpec,
} from '~/utils/uploads.server';

const TRACK_UPLOADS: UploadSpec = {
  coverImage: { kind: 'image' },
  audioFile: { kind: 'audio' },
};
const MISSING_TRACK_FILES =
  'Cover image and audio file are required. Make sure both files are selected.';

/**
 * POST /api/admin/tracks — multipart: title, artist?, album?, type?, duration? (m:ss; read
 * from the audio when empty), featured ('true'/'false'), coverImage and audioFile (both
 * required). 201 with the track.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    requireMethod(request, ['POST']);
    const { fields, files, fileErrors } = await parseMultipartUpload(request, TRACK_UPLOADS);
    let saved = false;
    try {
      const parsed = TrackFieldsSchema.safeParse(fields);
      const missing: FieldErrors = {};
      if (!files.coverImage && !fileErrors.coverImage)
        missing.coverImage = ['Cover image is required'];
      if (!files.audioFile && !fileErrors.audioFile) missing.audioFile = ['Audio file is required'];
      const errors = mergeFieldErrors(
        parsed.success ? {} : issuesToFields(parsed.error.issues),
        fileErrors,
        missing,
      );
      const cover = files.coverImage;
      const audio = files.audioFile;
      if (!parsed.success || !cover || !audio || Object.keys(errors).length > 0) {
        const message = Object.keys(missing).length > 0 ? MISSING_TRACK_FILES : undefined;
        return validationError(errors, message);
      }
      await prepareUploadedImage(cover.path);
      const duration = parsed.data.duration ?? (await readAudioDuration(audio.path)) ?? '0:00';
      const track = await createTrack({
        title: parsed.data.title,
        artist: parsed.data.artist ?? null,
        album: parsed.data.album ?? null,
        type: parsed.data.type,
        duration,
        featured: parsed.data.featured,
        coverImage: cover.url,
        audioFile: audio.url,
      });
      saved = true;
      return apiJson(track, { status: 201 });
    } finally {
      if (!saved) await discardUploads(files);
    }
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return methodNotAllowed(['POST']);
  });
