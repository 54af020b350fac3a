/**
 * Reading the player's state back from local storage: it may be stale, edited, or written by an
 * earlier version (whose queue was an array of tracks).
 */
import type { TracklistRow } from '~/types/entities';

import type { PersistedPlayerState, PlayerState, PlayerTrack } from './player-machine';
import {
  EMPTY_QUEUE,
  listQueue,
  MAX_QUEUE_SLOTS,
  type QueueSlot,
  slotsNear,
  type VirtualQueue,
} from './player-queue';
import { clampVolume, DEFAULT_VOLUME } from './player-rules';

/** A saved queue: an array (a list, as earlier versions saved it) or `{ source, size, slots }`. */
export function parseQueue(value: unknown): VirtualQueue {
  if (Array.isArray(value)) {
    return listQueue(value.map(readTrack).filter((t): t is PlayerTrack => t !== null));
  }
  if (!value || typeof value !== 'object') return EMPTY_QUEUE;
  const v = value as Record<string, unknown>;
  const source = v.source === 'catalogue' ? 'catalogue' : 'list';
  const size =
    typeof v.size === 'number' && Number.isSafeInteger(v.size) && v.size >= 0 ? v.size : 0;
  const slots: Record<number, QueueSlot> = {};
  if (v.slots && typeof v.slots === 'object') {
    for (const [key, raw] of Object.entries(v.slots as Record<string, unknown>).slice(
      0,
      MAX_QUEUE_SLOTS,
    )) {
      const p = Number(key);
      if (!Number.isInteger(p) || p < 0 || p >= size) continue;
      if (raw === null) slots[p] = null;
      else {
        const t = readTrack(raw);
        if (t) slots[p] = t;
      }
    }
  }
  // A list has every position loaded: one that did not read back is dropped.
  if (source === 'list') {
    return listQueue(
      Object.keys(slots)
        .map(Number)
        .sort((a, b) => a - b)
        .map((p) => slots[p])
        .filter((t): t is PlayerTrack => t !== null),
    );
  }
  return { source, size, slots };
}

export function readTrack(value: unknown): PlayerTrack | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'number' || typeof v.title !== 'string' || typeof v.audioFile !== 'string') {
    return null;
  }
  const str = (x: unknown) => (typeof x === 'string' ? x : '');
  const tracklist = readTracklist(v.tracklist);
  return {
    id: v.id,
    title: v.title,
    artist: str(v.artist),
    album: typeof v.album === 'string' ? v.album : null,
    duration: str(v.duration),
    coverImage: str(v.coverImage),
    audioFile: v.audioFile,
    ...(tracklist.length > 0 ? { tracklist } : {}),
  };
}

/** The rows of a saved tracklist that are still well formed. */
function readTracklist(value: unknown): TracklistRow[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((row: unknown) => {
    if (!row || typeof row !== 'object') return [];
    const r = row as Record<string, unknown>;
    if (typeof r.start !== 'number' || !Number.isFinite(r.start)) return [];
    if (typeof r.artist !== 'string' || typeof r.title !== 'string') return [];
    return [
      {
        start: r.start,
        artist: r.artist,
        title: r.title,
        label: typeof r.label === 'string' ? r.label : null,
      },
    ];
  });
}

/** Validates what came out of local storage (it may be stale, edited or from another version). */
export function parsePersisted(raw: string | null): PersistedPlayerState | null {
  if (!raw) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  const queue = parseQueue(d.queue);
  const num = (x: unknown, dflt: number) =>
    typeof x === 'number' && Number.isFinite(x) ? x : dflt;
  return {
    queue,
    index: num(d.index, -1),
    current: readTrack(d.current),
    position: Math.max(0, num(d.position, 0)),
    volume: clampVolume(num(d.volume, DEFAULT_VOLUME)),
    shuffle: d.shuffle === true,
    loop: d.loop === true,
  };
}

/** Favourite track ids from local storage. */
export function parseFavourites(raw: string | null): number[] {
  if (!raw) return [];
  try {
    const data: unknown = JSON.parse(raw);
    return Array.isArray(data) ? data.filter((x): x is number => Number.isInteger(x)) : [];
  } catch {
    return [];
  }
}

/** What is kept in local storage: the queue's positions near the current one. */
export function toPersisted(state: PlayerState): PersistedPlayerState {
  return {
    queue: { ...state.queue, slots: slotsNear(state.queue, state.index) },
    index: state.index,
    current: state.current,
    position: Math.floor(state.position * 10) / 10,
    volume: state.volume,
    shuffle: state.shuffle,
    loop: state.loop,
  };
}
