/**
 * The machine's transitions that move through the queue (player-machine.ts holds the reducer):
 * next/previous/end walking the positions, windows of the catalogue arriving, /music's queue.
 */
import type { PlayerAction, PlayerState, PlayerTrack, QueueRequest } from './player-machine';
import {
  isLoaded,
  mergeSlots,
  positionOfTrack,
  startPosition,
  type VirtualQueue,
  walk,
  wrap,
} from './player-queue';
import {
  clampPosition,
  displayDuration,
  isLoadable,
  normalizeAudioSrc,
  randomOtherIndex,
} from './player-rules';

function withCurrent(
  state: PlayerState,
  queue: VirtualQueue,
  index: number,
  track: PlayerTrack,
  playing: boolean,
): PlayerState {
  return {
    ...state,
    queue,
    index,
    request: null,
    shuffleNext: null,
    current: track,
    src: normalizeAudioSrc(track.audioFile, state.assetHost),
    loadNonce: state.loadNonce + 1,
    usingFallback: false,
    failed: false,
    playing,
    position: 0,
    duration: 0,
  };
}

export function withTrack(
  state: PlayerState,
  queue: VirtualQueue,
  index: number,
  playing: boolean,
): PlayerState {
  const track = index >= 0 ? queue.slots[index] : undefined;
  if (!track) return { ...state, queue, index: -1 };
  return withCurrent(state, queue, index, track, playing);
}

export function withRequest(state: PlayerState, request: DistributiveOmit<QueueRequest, 'id'>) {
  const id = state.requestNonce + 1;
  return { ...state, requestNonce: id, request: { ...request, id } as QueueRequest };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const stopAtStart = (state: PlayerState): PlayerState => ({
  ...state,
  playing: false,
  position: 0,
  seekNonce: state.seekNonce + 1,
});

type Plan = { start: number; direction: 1 | -1; left: number; exclude: number };

/**
 * Next/previous/end of track: the position to go to. Next and previous wrap; with shuffle on
 * (and more than one position) a random position other than the current one, the drawn-ahead
 * one when there is one. From a current track not placed in the queue: the first / last.
 */
function planMove(state: PlayerState, kind: 'next' | 'prev' | 'ended', random: number): Plan {
  const n = state.queue.size;
  if (state.shuffle && n > 1) {
    const ahead = state.shuffleNext;
    const start =
      ahead !== null && ahead !== state.index && ahead < n
        ? ahead
        : randomOtherIndex(n, state.index, random);
    return { start, direction: 1, left: n, exclude: state.index };
  }
  const direction = kind === 'prev' ? -1 : 1;
  const start = state.index < 0 ? (direction === 1 ? 0 : n - 1) : wrap(state.index + direction, n);
  return { start, direction, left: n, exclude: -1 };
}

/**
 * Walks the plan over the loaded positions (skipping the ones this listener cannot play): plays
 * the position found, or asks for the first one not loaded (a `move` request: the walk goes on
 * when its window comes).
 */
function follow(state: PlayerState, plan: Plan, playing: boolean, ended: boolean): PlayerState {
  if (state.queue.size === 0) return ended ? stopAtStart(state) : state;
  const w = walk(state.queue, plan.start, plan.direction, plan.left, plan.exclude);
  if ('found' in w) {
    // Nothing else to play (a queue of just this track): stop at the start rather than
    // looping forever, which would make the loop toggle meaningless.
    if (ended && w.found === state.index) return stopAtStart({ ...state, request: null });
    return withTrack(state, state.queue, w.found, playing);
  }
  if ('need' in w) {
    const { direction, exclude } = plan;
    return withRequest(state, {
      kind: 'move',
      position: w.need,
      direction,
      left: w.left,
      exclude,
      playing,
      ended,
    });
  }
  return ended ? stopAtStart({ ...state, request: null }) : { ...state, request: null };
}

export function move(
  state: PlayerState,
  kind: 'next' | 'prev' | 'ended',
  random: number,
): PlayerState {
  const playing = kind === 'ended' ? true : state.playing;
  return follow(state, planMove(state, kind, random), playing, kind === 'ended');
}

/** Where a window lands: merged with what is loaded, or, when the catalogue changed size, alone. */
export function withWindow(
  state: PlayerState,
  action: Extract<PlayerAction, { type: 'queueWindow' }>,
): PlayerState {
  const q = state.queue;
  // A window for a catalogue queue that has since been replaced by a list: nothing to keep.
  if (q.source !== 'catalogue') return state;
  const total = Math.max(0, Math.floor(action.total));
  const changed = q.size !== total;
  const base: VirtualQueue = changed ? { source: 'catalogue', size: total, slots: {} } : q;
  const queue = mergeSlots(base, action.position, action.tracks, state.index);
  let index = state.index;
  const current = state.current;
  const found = current ? positionOfTrack(queue, current.id) : -1;
  if (found !== -1) index = found;
  // A track inserted or deleted since: the positions moved; stay as near as can be told.
  else if (changed) index = index >= total ? total - 1 : index;
  return { ...state, queue, index };
}

export function resolveRequest(
  before: PlayerState,
  state: PlayerState,
  action: Extract<PlayerAction, { type: 'queueWindow' }>,
): PlayerState {
  const r = before.request;
  if (!r || r.id !== action.requestId) return state;
  const n = state.queue.size;
  const done = { ...state, request: null };
  if (r.kind === 'locate') return done;
  if (r.kind === 'start') {
    // The listener pressed Play meanwhile: the track they chose stays, and the answer only
    // tells where it stands (found in the window, or asked for).
    if (state.playing && state.current) {
      const i = positionOfTrack(done.queue, state.current.id);
      if (i !== -1) return { ...done, index: i };
      return withRequest({ ...done, index: -1 }, { kind: 'locate', trackId: state.current.id });
    }
    if (action.at === null || n === 0) {
      return { ...done, index: -1, current: null, src: null, playing: false };
    }
    return follow(done, { start: action.at, direction: 1, left: n, exclude: -1 }, false, false);
  }
  if (n === 0) return r.ended ? stopAtStart(done) : done;
  let plan: Plan = {
    // The catalogue shrank below the position: wrap to the end it went past (then fetch that).
    start: r.position < n ? r.position : r.direction === 1 ? 0 : n - 1,
    direction: r.direction,
    left: Math.min(r.left, n),
    exclude: r.exclude,
  };
  // A track was inserted or deleted meanwhile: positions moved. When the window shows where
  // the current track went, the move starts again from there.
  const anchor = before.current ? positionOfTrack(state.queue, before.current.id) : -1;
  if (before.queue.size !== n && anchor !== -1) {
    plan =
      r.exclude === -1
        ? { start: wrap(anchor + r.direction, n), direction: r.direction, left: n, exclude: -1 }
        : { ...plan, exclude: anchor };
  }
  const next = follow(done, plan, r.playing, r.ended);
  // The window did not hold the position it was asked for (it moved meanwhile): stop asking.
  if (
    next.request?.kind === 'move' &&
    next.request.position === r.position &&
    !isLoaded(state.queue, r.position)
  ) {
    return done;
  }
  return next;
}

/** The state with the position moved to `startAt` (when given), applied by the element. */
export function startingAt(state: PlayerState, startAt: number | undefined): PlayerState {
  if (startAt === undefined || !Number.isFinite(startAt)) return state;
  const position = clampPosition(startAt, displayDuration(state));
  return { ...state, position, seekNonce: state.seekNonce + 1 };
}

/**
 * Makes `track` current. Missing from a list queue: appended. Not loaded in the catalogue
 * queue (which holds every track): current at once, its position asked for (`locate`).
 */
export function loadTrack(state: PlayerState, track: PlayerTrack, autoplay: boolean): PlayerState {
  if (!isLoadable(track)) return state;
  const q = state.queue;
  const i = positionOfTrack(q, track.id);
  if (i === -1) {
    if (q.source === 'catalogue') {
      const placed = withCurrent(state, q, -1, track, autoplay);
      return withRequest(placed, { kind: 'locate', trackId: track.id });
    }
    const queue: VirtualQueue = { ...q, size: q.size + 1, slots: { ...q.slots, [q.size]: track } };
    return withTrack(state, queue, q.size, autoplay);
  }
  // Refresh the stored copy (the file or title may have changed since it was queued).
  const queue: VirtualQueue = { ...q, slots: { ...q.slots, [i]: track } };
  return withTrack(state, queue, i, autoplay);
}

/** /music: the queue becomes every track (see the `setCatalogue` action). */
export function setCatalogue(
  state: PlayerState,
  action: Extract<PlayerAction, { type: 'setCatalogue' }>,
): PlayerState {
  const size = Math.max(0, Math.floor(action.size));
  const same = state.queue.source === 'catalogue' && state.queue.size === size;
  const base: VirtualQueue = same ? state.queue : { source: 'catalogue', size, slots: {} };
  const tracks = action.tracks.map((t) => (t && isLoadable(t) ? t : null));
  const queue =
    action.offset === null ? base : mergeSlots(base, action.offset, tracks, state.index);
  const current = state.current;
  if (current) {
    const i = positionOfTrack(queue, current.id);
    // The current track keeps playing; next/previous now walk the catalogue.
    if (i !== -1) return { ...state, queue, index: i };
    if (same && state.index >= 0) return { ...state, queue };
    if (state.playing) {
      return withRequest({ ...state, queue, index: -1 }, { kind: 'locate', trackId: current.id });
    }
  }
  const start = startPosition(queue);
  if (start === 'unknown') return withRequest({ ...state, queue }, { kind: 'start' });
  if (start === null) {
    return { ...state, queue, index: -1, request: null, current: null, src: null, playing: false };
  }
  return withTrack(state, queue, start, false);
}
/**
 * Positions worth fetching ahead after a track starts in the catalogue queue, with the
 * direction the walk would read them in: where next and previous would stop for want of a
 * window, and the drawn-ahead shuffle position. Most taps then need no fetch.
 */
export function prefetchNeeds(state: PlayerState): { position: number; direction: 1 | -1 }[] {
  const q = state.queue;
  if (q.source !== 'catalogue' || q.size === 0 || state.index < 0) return [];
  const needs: { position: number; direction: 1 | -1 }[] = [];
  const add = (start: number, direction: 1 | -1, exclude: number) => {
    const w = walk(q, start, direction, q.size, exclude);
    if ('need' in w && !needs.some((n) => n.position === w.need)) {
      needs.push({ position: w.need, direction });
    }
  };
  add(wrap(state.index + 1, q.size), 1, -1);
  add(wrap(state.index - 1, q.size), -1, -1);
  if (state.shuffle && state.shuffleNext !== null) add(state.shuffleNext, 1, state.index);
  return needs;
}
