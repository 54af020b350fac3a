import { publishItem } from '~/fediverse/publication.server';
import { uploadPathFromUrl } from '~/files/stored-files.server';
import { readAudioDuration } from '~/files/uploads.server';
import { needsTranscode } from '~/media/transcode.server';
import { checkWavHeader } from '~/media/wav.server';
import { kickMediaWorker } from '~/media/worker.server';
import { getTrack } from '~/models/track.server';
import { createTrack, deleteTrack, updateTrack } from '~/models/track-writes.server';
import { UPLOAD_ID_FIELDS } from '~/schemas/resumable-upload';
import { MISSING_FILES, type TrackFields, TrackFieldsSchema } from '~/schemas/track';
import { tracklistPastEnd } from '~/schemas/tracklist';
import type { TrackJSON } from '~/types/entities';
import type { FieldErrors } from '~/types/forms';
import { formatClock, parseClock } from '~/utils/media-time';

import {
  type CheckInput,
  type EntityForm,
  type SaveInput,
  uploadEntity,
  type UploadFlow,
} from './upload-flow.server';

/**
 * Saving a track, for the admin form (`submitTrackForm`) and /api/admin/tracks (`saveTrack`):
 * its fields and files, how its record is written, and the form's texts. The flow itself
 * (parsing, validation, storing, cleaning up) is app/services/upload-flow.server.ts.
 */

/**
 * The duration to store: the one typed in; else, with the API's PUT (`keepUnsent`), the new
 * audio file's (or none: the current one stays); else the new or current audio file's, then
 * the current duration. The edit form sends the stored duration back as it was: with a new
 * audio file that is the old file's length, not a choice, so the new file's is read.
 */
async function trackDuration(
  typed: string | undefined,
  newAudioPath: string | undefined,
  existing: TrackJSON | null,
  keepUnsent: boolean,
): Promise<string | undefined> {
  if (typed && newAudioPath && existing && typed === existing.duration) {
    return (await readAudioDuration(newAudioPath)) ?? typed;
  }
  if (typed) return typed;
  if (existing && keepUnsent) {
    return newAudioPath ? ((await readAudioDuration(newAudioPath)) ?? '0:00') : undefined;
  }
  const audioPath = newAudioPath ?? uploadPathFromUrl(existing?.audioFile);
  return (audioPath ? await readAudioDuration(audioPath) : null) ?? existing?.duration ?? '0:00';
}

/**
 * A new WAV's header its media job would refuse (a fmt chunk over 64 KiB, a sample rate
 * outside 8–192 kHz…: decision 046), refused now; then a tracklist checked against the length
 * the track will have (a typed one was checked with the fields; this covers the one read from
 * the audio): no row may start after the end.
 */
async function checkTrackFiles({
  value,
  filePaths,
  existing,
  keepUnsent,
}: CheckInput<TrackFields, TrackJSON>): Promise<FieldErrors | null> {
  const wavProblem = filePaths.audioFile ? await checkWavHeader(filePaths.audioFile) : null;
  if (wavProblem) return { audioFile: [wavProblem] };
  if (!value.tracklist?.rows.length) return null;
  const duration = await trackDuration(value.duration, filePaths.audioFile, existing, keepUnsent);
  const seconds = duration ? parseClock(duration) : (existing?.durationSeconds ?? null);
  if (!seconds) return null;
  const problems = tracklistPastEnd(value.tracklist, seconds);
  return problems.length > 0 ? { tracklist: problems } : null;
}

async function saveTrackRecord({
  value,
  fields,
  files,
  existing,
  keepUnsent,
}: SaveInput<TrackFields, TrackJSON>): Promise<TrackJSON | null> {
  // The API's PUT leaves what it was not sent alone; a create or the form writes every field.
  const writes = (name: string) => !existing || !keepUnsent || Object.hasOwn(fields, name);
  const duration = await trackDuration(value.duration, files.audioFile?.path, existing, keepUnsent);
  // Stored both ways: as shown (62:30 typed is kept as 1:02:30) and in whole seconds.
  const seconds = duration ? parseClock(duration) : null;
  const length =
    seconds === null ? {} : { duration: formatClock(seconds), durationSeconds: seconds };
  const write = {
    title: value.title,
    artist: value.artist ?? null,
    album: value.album ?? null,
    ...(writes('type') ? { type: value.type } : {}),
    ...length,
    ...(writes('description') ? { description: value.description ?? null } : {}),
    ...(writes('tracklist') ? { tracklist: value.tracklist?.rows ?? [] } : {}),
    ...(writes('featured') ? { featured: value.featured } : {}),
    ...(writes('visibility') ? { visibility: value.visibility } : {}),
    ...(writes('publicAt') ? { publicAt: value.publicAt ?? null } : {}),
    ...(files.coverImage ? { coverImage: files.coverImage.url } : {}),
    ...(files.audioFile ? { audioFile: files.audioFile.url } : {}),
    // A WAV or an MP3 above 320 kbps is not playable until its stream is made (decision 035).
    ...(files.audioFile
      ? {
          audioStatus: (await needsTranscode(files.audioFile.path))
            ? ('processing' as const)
            : ('ready' as const),
        }
      : {}),
  };
  const saved = existing
    ? await updateTrack(existing.id, write)
    : await createTrack({
        ...write,
        duration: length.duration ?? '0:00',
        durationSeconds: length.durationSeconds ?? 0,
        coverImage: files.coverImage.url,
        audioFile: files.audioFile.url,
      });
  // The new upload's job (peaks, and its stream when it needs one) was queued with the write.
  if (saved && files.audioFile) kickMediaWorker();
  // Followers on the fediverse get it once it is public and playable (decision 054); the save
  // does not wait for it (publishItem never throws; the sweep sends what is left).
  if (saved) void publishItem('track', saved.id);
  return saved;
}

const TRACK_FLOW: UploadFlow<TrackFields, TrackJSON> = {
  uploads: { coverImage: { kind: 'image' }, audioFile: { kind: 'audio' } },
  schema: TrackFieldsSchema,
  requiredFiles: { coverImage: 'Cover image is required', audioFile: 'Audio file is required' },
  load: getTrack,
  check: checkTrackFiles,
  save: saveTrackRecord,
  // The audio may come as a finished resumable upload (`audioUploadId`, decision 036).
  uploadIds: UPLOAD_ID_FIELDS,
};

const FORM: EntityForm<TrackJSON> = {
  failed: { create: 'Failed to create track', update: 'Failed to update track' },
  notFound: 'Track not found',
  missingFiles: MISSING_FILES,
  saved: {
    create: (t) => ({
      title: 'Track created',
      description: `"${t.title}" was added to the catalogue.`,
    }),
    update: (t) => ({ title: 'Track updated', description: `"${t.title}" was updated.` }),
  },
};

/**
 * Add or edit a track from a multipart request (cover image and audio file required on
 * create; the duration is read from the audio when left empty): `saveTrack` for
 * /api/admin/tracks, `submitTrackForm`, `trackFormAction` and `trackEditLoader` (its routes) for the admin's add and edit dialogs.
 */
export const {
  save: saveTrack,
  submitForm: submitTrackForm,
  formAction: trackFormAction,
  editLoader: trackEditLoader,
} = uploadEntity(TRACK_FLOW, FORM);

/** Delete a track (the admin page and DELETE /api/admin/tracks/{id}); followers get a Delete. */
export async function removeTrack(id: number): Promise<TrackJSON | null> {
  const removed = await deleteTrack(id);
  if (removed) void publishItem('track', id);
  return removed;
}
