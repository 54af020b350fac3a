import { uploadPathFromUrl } from '~/files/stored-files.server';
import { readAudioDuration, type StoredUpload } from '~/files/uploads.server';
import { createTrack, getTrack, updateTrack } from '~/models/track.server';
import { type TrackFields, TrackFieldsSchema } from '~/schemas/track';
import type { TrackJSON } from '~/types/entities';
import { formatClock, parseClock } from '~/utils/media-time';

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
  };
  if (existing) return updateTrack(existing.id, write);
  return createTrack({
    ...write,
    duration: length.duration ?? '0:00',
    durationSeconds: length.durationSeconds ?? 0,
    coverImage: files.coverImage.url,
    audioFile: files.audioFile.url,
  });
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
