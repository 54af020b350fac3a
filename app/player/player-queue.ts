/**
 * The player's queue as positions (issue 37): it knows its size and the tracks it has loaded
 * by position, not every track. A list queue (the home page's tracks, a member's favourites)
 * has every position loaded; the catalogue queue (/music: every track, newest first) loads
 * windows of positions from `GET /api/tracks/queue` as the player needs them.
 *
 * Pure functions over plain data; the machine (player-machine.ts) decides, the provider fetches.
 */
import type { PlayerTrack } from './player-machine';

export const UPLOADS_AUDIO_SEGMENT = '/uploads/audio/';
/** Positions one fetch asks for (a /music page holds 24). */
export const QUEUE_FETCH_COUNT = 24;
/** The most positions kept loaded: the ones farthest from the current track go first. */
export const MAX_QUEUE_SLOTS = 480;
/** Positions around the current track kept in local storage. */
const PERSISTED_SLOTS_AROUND = QUEUE_FETCH_COUNT;

/** A loaded position: a track, or null for one this listener cannot play (locked, processing). */
export type QueueSlot = PlayerTrack | null;

export type VirtualQueue = {
  /** 'list': every position is loaded. 'catalogue': the others are fetched by position. */
  source: 'list' | 'catalogue';
  /** Positions in the whole queue. */
  size: number;
  slots: Readonly<Record<number, QueueSlot>>;
};

export const EMPTY_QUEUE: VirtualQueue = { source: 'list', size: 0, slots: {} };

export function listQueue(tracks: readonly PlayerTrack[]): VirtualQueue {
  return { source: 'list', size: tracks.length, slots: slotsFrom(0, tracks) };
}

export function slotsFrom(offset: number, tracks: readonly QueueSlot[]): Record<number, QueueSlot> {
  const slots: Record<number, QueueSlot> = {};
  tracks.forEach((t, i) => {
    slots[offset + i] = t;
  });
  return slots;
}

export const isLoaded = (queue: VirtualQueue, position: number): boolean =>
  Object.prototype.hasOwnProperty.call(queue.slots, position);

/** The loaded playable tracks with their positions, in position order. */
export function loadedEntries(queue: VirtualQueue): [number, PlayerTrack][] {
  return Object.entries(queue.slots)
    .map(([p, t]): [number, QueueSlot] => [Number(p), t])
    .filter((e): e is [number, PlayerTrack] => e[1] !== null)
    .sort((a, b) => a[0] - b[0]);
}

/** The loaded playable tracks, in position order. */
export const queueTracks = (queue: VirtualQueue): PlayerTrack[] =>
  loadedEntries(queue).map(([, t]) => t);

/** The position of a loaded track, or -1. */
export function positionOfTrack(queue: VirtualQueue, id: number): number {
  for (const [p, t] of Object.entries(queue.slots)) if (t && t.id === id) return Number(p);
  return -1;
}

/** Whether playing this track keeps the queue: it is loaded, or the queue is every track. */
export const queueHolds = (queue: VirtualQueue, id: number): boolean =>
  queue.source === 'catalogue' || positionOfTrack(queue, id) !== -1;

export const wrap = (position: number, size: number): number =>
  size <= 0 ? -1 : ((position % size) + size) % size;

/** Circular distance between two positions. */
function distance(a: number, b: number, size: number): number {
  const d = Math.abs(a - b);
  return Math.min(d, size - d);
}

/**
 * The queue with positions `offset`.. set to `tracks`; beyond MAX_QUEUE_SLOTS, the positions
 * farthest from `keepNear` (the current position, else the new window) are dropped.
 */
export function mergeSlots(
  queue: VirtualQueue,
  offset: number,
  tracks: readonly QueueSlot[],
  keepNear: number,
): VirtualQueue {
  const slots: Record<number, QueueSlot> = { ...queue.slots };
  tracks.forEach((t, i) => {
    if (offset + i < queue.size) slots[offset + i] = t;
  });
  const positions = Object.keys(slots).map(Number);
  if (positions.length > MAX_QUEUE_SLOTS) {
    const near = keepNear >= 0 ? keepNear : offset;
    positions
      .sort((a, b) => distance(b, near, queue.size) - distance(a, near, queue.size))
      .slice(0, positions.length - MAX_QUEUE_SLOTS)
      .forEach((p) => delete slots[p]);
  }
  return { ...queue, slots };
}

/** The slots within `around` positions of `center` (all of a list's). */
export function slotsNear(queue: VirtualQueue, center: number, around = PERSISTED_SLOTS_AROUND) {
  if (queue.source === 'list') return queue.slots;
  return Object.fromEntries(
    Object.entries(queue.slots).filter(
      ([p]) => center >= 0 && distance(Number(p), center, queue.size) <= around,
    ),
  );
}

export type Walk =
  | { found: number }
  /** Position `need` is not loaded; `left` positions (it included) were still to try. */
  | { need: number; left: number }
  | { none: true };

/**
 * From `start`, step by `direction` (wrapping) through at most `left` positions, skipping
 * `exclude` and the loaded positions this listener cannot play, to the first playable one; or
 * the first position that is not loaded.
 */
export function walk(
  queue: VirtualQueue,
  start: number,
  direction: 1 | -1,
  left: number,
  exclude: number,
): Walk {
  const n = queue.size;
  for (let step = 0; step < Math.min(left, n); step++) {
    const p = wrap(start + direction * step, n);
    if (p === exclude) continue;
    if (!isLoaded(queue, p)) {
      if (queue.source === 'list') continue;
      return { need: p, left: left - step };
    }
    if (queue.slots[p]) return { found: p };
  }
  return { none: true };
}

/**
 * Where /music starts the queue (SPEC §4, §9): the first playable track whose file is under
 * /uploads/audio/, else the first playable one, null when none is; 'unknown' when the loaded
 * positions from 0 on do not tell (the provider then asks the server, `?position=start`).
 */
export function startPosition(queue: VirtualQueue): number | null | 'unknown' {
  let fallback = -1;
  for (let p = 0; p < queue.size; p++) {
    if (!isLoaded(queue, p)) return 'unknown';
    const t = queue.slots[p];
    if (!t) continue;
    if (t.audioFile.includes(UPLOADS_AUDIO_SEGMENT)) return p;
    if (fallback < 0) fallback = p;
  }
  return fallback >= 0 ? fallback : null;
}
