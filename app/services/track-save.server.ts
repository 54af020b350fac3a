import { uploadPathFromUrl } from '~/files/stored-files.server';
import { readAudioDuration, type StoredUpload } from '~/files/uploads.server';
import { needsTranscode } from '~/media/transcode.server';
import { kickMediaWorker } from '~/media/worker.server';
import { createTrack, getTrack, updateTrack } from '~/models/track.server';
import { type TrackFields, TrackFieldsSchema } from '~/schemas/track';
import type { TrackJSON } from '~/types/entities';

import {
  type SaveClient,
  type SaveInput,
  type SaveResult,
  type SaveTarget,
  saveUpload,
  type UploadFlow,
} from './upload-save.server';

/**
 * The duration to store: the one typed in; else, with the API's PUT (`keepUnsent`), the new
 * audio file's (or none: the current one stays); else the new or current audio file's, then
 * the current duration.
 */
async function trackDuration(
  typed: string | undefined,
  audio: StoredUpload | undefined,
  existing: TrackJSON | null,
  keepUnsent: boolean,
): Promise<string | undefined> {
  if (typed) return typed;
  if (existing && keepUnsent) {
    return audio ? ((await readAudioDuration(audio.path)) ?? '0:00') : undefined;
  }
  const audioPath = audio?.path ?? uploadPathFromUrl(existing?.audioFile);
  return (audioPath ? await readAudioDuration(audioPath) : null) ?? existing?.duration ?? '0:00';
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
  const duration = await trackDuration(value.duration, files.audioFile, existing, keepUnsent);
  const write = {
    title: value.title,
    artist: value.artist ?? null,
    album: value.album ?? null,
    ...(writes('type') ? { type: value.type } : {}),
    ...(duration ? { duration } : {}),
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
        duration: duration ?? '0:00',
        coverImage: files.coverImage.url,
        audioFile: files.audioFile.url,
      });
  // The new upload's job (peaks, and its stream when it needs one) was queued with the write.
  if (saved && files.audioFile) kickMediaWorker();
  return saved;
}

export const TRACK_FLOW: UploadFlow<TrackFields, TrackJSON> = {
  uploads: { coverImage: { kind: 'image' }, audioFile: { kind: 'audio' } },
  schema: TrackFieldsSchema,
  requiredFiles: { coverImage: 'Cover image is required', audioFile: 'Audio file is required' },
  load: getTrack,
  save: saveTrackRecord,
};

/** Add or edit a track from a multipart request (cover image and audio file required on create). */
export const saveTrack = <S>(
  request: Request,
  target: SaveTarget,
  client: SaveClient<S>,
): Promise<SaveResult<TrackJSON, S>> => saveUpload(request, target, TRACK_FLOW, client);
