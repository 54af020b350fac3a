import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import {
  deleteTrack,
  getTrack,
  setTrackFeatured,
  updateTrack,
  type TrackWrite,
} from '~/models/track.server';
import { FeaturedToggleSchema, TrackFieldsSchema } from '~/schemas/track';
import {
  apiError,
  apiJson,
  handleApi,
  isJsonRequest,
  issuesToFields,
  mergeFieldErrors,
  methodNotAllowed,
  noContent,
  readJsonBody,
  requireAdminRequest,
  requireId,
  requireMethod,
  validationError,
} from '~/utils/api.server';
import { prepareUploadedImage } from '~/utils/image-derivatives.server';
import {
  discardUploads,
  parseMultipartUpload,
  readAudioDuration,
  type UploadSpec,
} from '~/utils/uploads.server';

const ALLOWED = ['PUT', 'DELETE'] as const;
const TRACK_UPLOADS: UploadSpec = { coverImage: { kind: 'image' }, audioFile: { kind: 'audio' } };
const NOT_FOUND = 'Track not found';

/**
 * PUT /api/admin/tracks/{id}
 * - JSON `{ featured: boolean }`: sets the featured flag (other tracks are unchanged).
 * - multipart, the fields of POST: files are optional; without a new file the current one
 *   is kept (coverImageUrl / audioFileUrl are accepted and need not be sent). Absent
 *   `type`, `featured` and `duration` keep their values (an empty duration with a new
 *   audio file is read from it); an absent `album` clears it, an absent `artist` resets
 *   it to the collective's name.
 * DELETE /api/admin/tracks/{id} — 204; the track's files are deleted too.
 * 404 for an unknown id.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    requireMethod(request, ALLOWED);
    const id = requireId(params.id, 'Track');

    if (request.method.toUpperCase() === 'DELETE') {
      return (await deleteTrack(id)) ? noContent() : apiError(404, NOT_FOUND);
    }

    const current = await getTrack(id);
    if (!current) return apiError(404, NOT_FOUND);

    if (isJsonRequest(request)) {
      const { featured } = await readJsonBody(request, FeaturedToggleSchema);
      const track = await setTrackFeatured(id, featured);
      return track ? apiJson(track) : apiError(404, NOT_FOUND);
    }

    const { fields, files, fileErrors } = await parseMultipartUpload(request, TRACK_UPLOADS);
    let saved = false;
    try {
      const parsed = TrackFieldsSchema.safeParse(fields);
      const errors = mergeFieldErrors(
        parsed.success ? {} : issuesToFields(parsed.error.issues),
        fileErrors,
      );
      if (!parsed.success || Object.keys(errors).length > 0) return validationError(errors);
      const data = parsed.data;
      const update: Partial<TrackWrite> = {
        title: data.title,
        artist: data.artist ?? null,
        album: data.album ?? null,
      };
      if ('type' in fields) update.type = data.type;
      if ('featured' in fields) update.featured = data.featured;
      if (files.coverImage) {
        await prepareUploadedImage(files.coverImage.path);
        update.coverImage = files.coverImage.url;
      }
      if (files.audioFile) {
        update.audioFile = files.audioFile.url;
        update.duration =
          data.duration ?? (await readAudioDuration(files.audioFile.path)) ?? '0:00';
      } else if (data.duration) {
        update.duration = data.duration;
      }
      const track = await updateTrack(id, update);
      if (!track) return apiError(404, NOT_FOUND);
      saved = true;
      return apiJson(track);
    } finally {
      if (!saved) await discardUploads(files);
    }
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return methodNotAllowed(ALLOWED);
  });
