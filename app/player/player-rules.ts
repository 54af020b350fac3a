/**
 * The player's rules that need no state machine: audio paths, clamps, random picks, times.
 * Re-exported by player-machine.ts (its importers read them from there).
 */
import { parseClock } from '~/utils/media-time';

import type { PlayerState, PlayerTrack } from './player-machine';
import { UPLOADS_AUDIO_SEGMENT } from './player-queue';

export const FALLBACK_AUDIO_PATH = '/uploads/audio/fallback.mp3';
export const DEFAULT_VOLUME = 0.8;
export const POSITION_REFRESH_MS = 1000;
export const SEEK_STEP_SECONDS = 0.1;
export const FEATURED_SEEK_SECONDS = 10;
export const PLAY_START_DELAY_MS = 100;

/**
 * Only what the player keeps of a track (from a page's data, or a queue window), so local
 * storage stays small; a tracklist only when there is one.
 */
export function toPlayerTrack(t: PlayerTrack): PlayerTrack {
  return {
    id: t.id,
    title: t.title,
    artist: t.artist,
    album: t.album,
    duration: t.duration,
    coverImage: t.coverImage,
    audioFile: t.audioFile,
    ...(t.tracklist && t.tracklist.length > 0 ? { tracklist: t.tracklist } : {}),
  };
}

export function stripTrailingSlashes(s: string): string {
  return s.replace(/\/+$/, '');
}

/**
 * 'sample.mp3' or a path without '/uploads/audio/' becomes the fallback file; an
 * http(s) URL is kept; a relative path gets a leading slash; anything else (a root-relative
 * path) is prefixed with the asset host. The fallback itself is a root-relative path.
 */
export function normalizeAudioSrc(path: string | null | undefined, assetHost = ''): string {
  const host = stripTrailingSlashes(assetHost);
  const p = (path ?? '').trim();
  if (p === '' || p === 'sample.mp3' || !p.includes(UPLOADS_AUDIO_SEGMENT)) {
    return host + FALLBACK_AUDIO_PATH;
  }
  if (/^https?:\/\//i.test(p)) return p;
  if (!p.startsWith('/')) return `/${p}`;
  return host + p;
}

/** The fallback URL under the same asset host rules. */
export function fallbackAudioSrc(assetHost = ''): string {
  return stripTrailingSlashes(assetHost) + FALLBACK_AUDIO_PATH;
}

/** A track can be loaded only with a title and an audio file. */
export function isLoadable(track: Partial<PlayerTrack> | null | undefined): track is PlayerTrack {
  return (
    !!track &&
    typeof track.title === 'string' &&
    track.title.trim() !== '' &&
    typeof track.audioFile === 'string' &&
    track.audioFile.trim() !== ''
  );
}

export function clampVolume(v: number): number {
  if (!Number.isFinite(v)) return DEFAULT_VOLUME;
  return Math.min(1, Math.max(0, v));
}

/** Clamps a position to 0..duration (only to >= 0 while the duration is unknown). */
export function clampPosition(position: number, duration: number): number {
  if (!Number.isFinite(position) || position < 0) return 0;
  if (Number.isFinite(duration) && duration > 0) return Math.min(position, duration);
  return position;
}

/** At index 0, start at the first track whose file is under /uploads/audio/ (an uploaded file). */
export function resolveStartIndex(tracks: PlayerTrack[], index: number): number {
  if (tracks.length === 0) return -1;
  if (index === 0) {
    const i = tracks.findIndex((t) => t.audioFile.includes(UPLOADS_AUDIO_SEGMENT));
    return i === -1 ? 0 : i;
  }
  if (!Number.isInteger(index) || index < 0) return 0;
  return Math.min(index, tracks.length - 1);
}

/** A random index other than `current` (when the queue holds more than one track). */
export function randomOtherIndex(length: number, current: number, random: number): number {
  if (length <= 1) return 0;
  const r = Math.min(Math.max(random, 0), 0.999999999);
  if (current < 0 || current >= length) return Math.floor(r * length);
  // Pick among the length - 1 other slots, then skip over the current one.
  const pick = Math.floor(r * (length - 1));
  return pick >= current ? pick + 1 : pick;
}

/** Spoken time for aria-valuetext: '1 minute 5 seconds', '0 seconds'. */
export function formatTimeForSpeech(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts: string[] = [];
  if (h) parts.push(unit(h, 'hour'));
  if (m) parts.push(unit(m, 'minute'));
  if (sec || parts.length === 0) parts.push(unit(sec, 'second'));
  return parts.join(' ');
}

/** Total length to show: the element's duration once known, else the track's own text. */
export function displayDuration(state: Pick<PlayerState, 'duration' | 'current'>): number {
  if (state.duration > 0 && Number.isFinite(state.duration)) return state.duration;
  return parseClock(state.current?.duration, { lenient: true }) ?? 0;
}

export function volumeLevel(volume: number): 'high' | 'low' | 'muted' {
  if (volume > 0.5) return 'high';
  if (volume > 0) return 'low';
  return 'muted';
}

/** `track` becomes current at `index` (-1: not placed in the queue), its file loaded. */
