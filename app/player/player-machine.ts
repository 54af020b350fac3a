/**
 * The persistent player's rules as a pure state machine (queue, shuffle, loop, fallback, volume).
 *
 * No React, no DOM: `player-provider.tsx` binds this reducer to the single `<audio>` element.
 * The element is told what to do through the state: `src` + `loadNonce` (load this file),
 * `playing` (wanted play state), `position` + `seekNonce` (jump there). The queue is positions
 * (player-queue.ts); what it needs from the catalogue it asks for through `request`, which the
 * provider fetches and answers with `queueWindow` (no fetch in here).
 */
import type { TrackJSON, TracklistRow } from '~/types/entities';
import { parseClock } from '~/utils/media-time';

import {
  EMPTY_QUEUE,
  listQueue,
  positionOfTrack,
  type QueueSlot,
  type VirtualQueue,
} from './player-queue';
import {
  clampPosition,
  clampVolume,
  DEFAULT_VOLUME,
  displayDuration,
  fallbackAudioSrc,
  isLoadable,
  normalizeAudioSrc,
  randomOtherIndex,
  resolveStartIndex,
  stripTrailingSlashes,
} from './player-rules';
import {
  loadTrack,
  move,
  resolveRequest,
  setCatalogue,
  startingAt,
  withRequest,
  withTrack,
  withWindow,
} from './player-transitions';

export { parseFavourites, parsePersisted, toPersisted } from './player-persisted';
export type { QueueSlot, VirtualQueue } from './player-queue';
export { UPLOADS_AUDIO_SEGMENT } from './player-queue';
export * from './player-rules';

/**
 * The part of a track the player needs (a full `TrackJSON` fits). `tracklist`: a mix's rows,
 * for the bar's "Now: Artist – Title" (left out when empty, so the saved queue stays small).
 */
export type PlayerTrack = Pick<
  TrackJSON,
  'id' | 'title' | 'artist' | 'album' | 'duration' | 'coverImage' | 'audioFile'
> & { tracklist?: TracklistRow[] };

/**
 * What the machine needs from the catalogue (the provider fetches it and answers with
 * `queueWindow`): `move`, a next/previous/end that reached a position not loaded yet (the walk
 * goes on from there); `start`, where /music starts the queue; `locate`, the position of the
 * current track.
 */
export type QueueRequest = { id: number } & (
  | {
      kind: 'move';
      position: number;
      direction: 1 | -1;
      /** Positions still to try (the walk stops after the whole queue). */
      left: number;
      /** Never this position (shuffle: the current one). */
      exclude: number;
      playing: boolean;
      ended: boolean;
    }
  | { kind: 'start' }
  | { kind: 'locate'; trackId: number }
);

export type PlayerState = {
  /** The queue by position (player-queue.ts): its size and the tracks loaded so far. */
  queue: VirtualQueue;
  /** Position of `current` in `queue`; -1 when there is no current track or it is not placed. */
  index: number;
  /** A fetch the queue waits for (the provider makes it); null when none. */
  request: QueueRequest | null;
  /** The last request's id. */
  requestNonce: number;
  /** With shuffle on: the position drawn for the next move (prefetched), or null. */
  shuffleNext: number | null;
  current: PlayerTrack | null;
  /** The URL the `<audio>` element should hold (normalised, maybe the fallback). */
  src: string | null;
  /** Bumped on every (re)load of `src`, so the same URL can be loaded again. */
  loadNonce: number;
  /** True once `src` is the fallback file after a load error. */
  usingFallback: boolean;
  /** True when the fallback also failed: nothing more happens. */
  failed: boolean;
  playing: boolean;
  volume: number;
  loop: boolean;
  shuffle: boolean;
  /** Seconds. */
  position: number;
  /** Seconds; 0 while unknown. */
  duration: number;
  /** Bumped whenever the element must jump to `position`. */
  seekNonce: number;
  /** True once the persisted state has been read (or found absent) after hydration. */
  restored: boolean;
  assetHost: string;
};

export type PersistedPlayerState = {
  queue: VirtualQueue;
  index: number;
  current: PlayerTrack | null;
  position: number;
  volume: number;
  shuffle: boolean;
  loop: boolean;
};

export type PlayerAction =
  /** Play button on a track: toggles when it is current, else loads it and plays. */
  | { type: 'playTrack'; track: PlayerTrack }
  /**
   * Makes a track current (appended when missing from the queue), playing or not; `startAt`
   * (seconds, a deep link or a tracklist row) puts the position there, also when it is current.
   */
  | { type: 'load'; track: PlayerTrack; autoplay: boolean; startAt?: number }
  | { type: 'toggle' }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'next'; random?: number }
  | { type: 'prev'; random?: number }
  | { type: 'playIndex'; index: number }
  /** The element reached the end of the file. */
  | { type: 'ended'; random?: number }
  /** The element failed to load `src`. */
  | { type: 'loadError'; src: string }
  | { type: 'setVolume'; volume: number }
  | { type: 'toggleShuffle' }
  | { type: 'toggleLoop' }
  | {
      type: 'setQueue';
      tracks: PlayerTrack[];
      index: number;
      /** Keep the current track (and its playback) when there is one. Default true. */
      keepCurrent?: boolean;
    }
  | { type: 'addToQueue'; track: PlayerTrack }
  /**
   * /music: the queue is every track (`size` of them, newest first); `tracks` stand at
   * positions `offset`.. (null: the page is a search, its tracks' positions are unknown).
   */
  | { type: 'setCatalogue'; size: number; offset: number | null; tracks: QueueSlot[] }
  /** A window of the catalogue fetched by the provider (for `requestId`, or a prefetch: null). */
  | {
      type: 'queueWindow';
      requestId: number | null;
      total: number;
      position: number;
      at: number | null;
      tracks: QueueSlot[];
    }
  /** The fetch for this request failed: the player stays where it is. */
  | { type: 'queueFailed'; requestId: number }
  /** With shuffle on, draws the next move's position ahead (so it can be prefetched). */
  | { type: 'drawShuffle'; random: number }
  | { type: 'seek'; position: number }
  | { type: 'seekBy'; delta: number }
  /** Position reported by the element (no jump). */
  | { type: 'timeUpdate'; position: number }
  | { type: 'durationChange'; duration: number }
  /** The element started or stopped on its own (lock screen, headphones, autoplay refusal). */
  | { type: 'mediaPlaying' }
  | { type: 'mediaPaused' }
  | { type: 'restore'; saved: PersistedPlayerState | null };

export function createInitialState(assetHost = ''): PlayerState {
  return {
    queue: EMPTY_QUEUE,
    index: -1,
    request: null,
    requestNonce: 0,
    shuffleNext: null,
    current: null,
    src: null,
    loadNonce: 0,
    usingFallback: false,
    failed: false,
    playing: false,
    volume: DEFAULT_VOLUME,
    loop: false,
    shuffle: false,
    position: 0,
    duration: 0,
    seekNonce: 0,
    restored: false,
    assetHost: stripTrailingSlashes(assetHost),
  };
}

const isCurrent = (state: PlayerState, track: PlayerTrack) =>
  state.current !== null && state.current.id === track.id;

/**
 * The reducer. `random` is used by shuffle when an action carries no `random` value
 * (inject a fixed function in tests).
 */
export function createPlayerReducer(random: () => number = Math.random) {
  return function playerReducer(state: PlayerState, action: PlayerAction): PlayerState {
    switch (action.type) {
      case 'playTrack': {
        if (!isLoadable(action.track)) return state;
        if (isCurrent(state, action.track) && !state.failed) {
          return { ...state, playing: !state.playing };
        }
        return loadTrack(state, action.track, true);
      }
      case 'load': {
        if (!isLoadable(action.track)) return state;
        if (isCurrent(state, action.track) && !state.failed) {
          const playing = action.autoplay ? { ...state, playing: true } : state;
          return startingAt(playing, action.startAt);
        }
        return startingAt(loadTrack(state, action.track, action.autoplay), action.startAt);
      }
      case 'toggle':
        if (!state.current || !state.src) return state;
        if (state.failed) return state.playing ? { ...state, playing: false } : state;
        return { ...state, playing: !state.playing };
      case 'play':
        if (!state.current || !state.src || state.failed) return state;
        return state.playing ? state : { ...state, playing: true };
      case 'pause':
      case 'mediaPaused':
        return state.playing ? { ...state, playing: false } : state;
      case 'mediaPlaying':
        if (!state.current) return state;
        return state.playing ? state : { ...state, playing: true };
      case 'next':
        return move(state, 'next', action.random ?? random());
      case 'prev':
        return move(state, 'prev', action.random ?? random());
      case 'playIndex': {
        const track = state.queue.slots[action.index];
        if (!track) return state;
        return loadTrack(state, track, true);
      }
      case 'ended': {
        if (!state.current) return state;
        if (state.loop) {
          return { ...state, playing: true, position: 0, seekNonce: state.seekNonce + 1 };
        }
        return move(state, 'ended', action.random ?? random());
      }
      case 'loadError': {
        if (action.src !== state.src || state.failed) return state;
        const fallback = fallbackAudioSrc(state.assetHost);
        if (!state.usingFallback && state.src !== fallback) {
          return {
            ...state,
            src: fallback,
            usingFallback: true,
            loadNonce: state.loadNonce + 1,
            position: 0,
            duration: 0,
          };
        }
        return { ...state, failed: true, playing: false };
      }
      case 'setVolume': {
        if (!Number.isFinite(action.volume)) return state;
        return { ...state, volume: clampVolume(action.volume) };
      }
      case 'toggleShuffle':
        return { ...state, shuffle: !state.shuffle, shuffleNext: null };
      case 'drawShuffle': {
        const n = state.queue.size;
        if (!state.shuffle || n <= 1 || state.shuffleNext !== null) return state;
        return { ...state, shuffleNext: randomOtherIndex(n, state.index, action.random) };
      }
      case 'setCatalogue':
        return setCatalogue(state, action);
      case 'queueWindow': {
        const tracks = action.tracks.map((t) => (t && isLoadable(t) ? t : null));
        return resolveRequest(state, withWindow(state, { ...action, tracks }), action);
      }
      case 'queueFailed':
        return state.request?.id === action.requestId ? { ...state, request: null } : state;
      case 'toggleLoop':
        return { ...state, loop: !state.loop };
      case 'setQueue': {
        const tracks = action.tracks.filter(isLoadable);
        const keepCurrent = action.keepCurrent ?? true;
        if (keepCurrent && state.current) {
          const current = state.current;
          const i = tracks.findIndex((t) => t.id === current.id);
          if (i !== -1 || state.playing) {
            // The current track keeps playing; next/previous now walk the new queue.
            return { ...state, queue: listQueue(tracks), index: i, request: null };
          }
        }
        const start = resolveStartIndex(tracks, action.index);
        if (start < 0) {
          return {
            ...state,
            queue: EMPTY_QUEUE,
            index: -1,
            request: null,
            current: null,
            src: null,
            playing: false,
          };
        }
        return withTrack(state, listQueue(tracks), start, false);
      }
      case 'addToQueue': {
        if (!isLoadable(action.track)) return state;
        const q = state.queue;
        if (positionOfTrack(q, action.track.id) !== -1) return state;
        // The catalogue holds every track already: only a first track is made current.
        if (q.source === 'catalogue') {
          return state.current ? state : loadTrack(state, action.track, false);
        }
        const queue: VirtualQueue = {
          ...q,
          size: q.size + 1,
          slots: { ...q.slots, [q.size]: action.track },
        };
        if (!state.current) return withTrack(state, queue, q.size, false);
        return { ...state, queue };
      }
      case 'seek': {
        if (!state.current) return state;
        const position = clampPosition(action.position, displayDuration(state));
        return { ...state, position, seekNonce: state.seekNonce + 1 };
      }
      case 'seekBy': {
        if (!state.current) return state;
        const position = clampPosition(state.position + action.delta, displayDuration(state));
        return { ...state, position, seekNonce: state.seekNonce + 1 };
      }
      case 'timeUpdate': {
        if (!Number.isFinite(action.position) || action.position < 0) return state;
        return action.position === state.position ? state : { ...state, position: action.position };
      }
      case 'durationChange': {
        const d = Number.isFinite(action.duration) && action.duration > 0 ? action.duration : 0;
        return d === state.duration ? state : { ...state, duration: d };
      }
      case 'restore': {
        const saved = action.saved;
        if (!saved) return { ...state, restored: true };
        const queue = saved.queue;
        const base: PlayerState = {
          ...state,
          restored: true,
          volume: clampVolume(saved.volume),
          shuffle: !!saved.shuffle,
          loop: !!saved.loop,
          queue,
        };
        const current = saved.current && isLoadable(saved.current) ? saved.current : null;
        if (!current) return { ...base, index: -1, current: null, src: null, playing: false };
        const index = positionOfTrack(queue, current.id);
        const restored: PlayerState = {
          ...base,
          index,
          current,
          src: normalizeAudioSrc(current.audioFile, state.assetHost),
          loadNonce: state.loadNonce + 1,
          usingFallback: false,
          failed: false,
          // Restored paused: browsers refuse to start audio without a user gesture anyway.
          playing: false,
          position: clampPosition(
            saved.position,
            parseClock(current.duration, { lenient: true }) || Infinity,
          ),
          duration: 0,
          seekNonce: state.seekNonce + 1,
        };
        return index === -1 && queue.source === 'catalogue'
          ? withRequest(restored, { kind: 'locate', trackId: current.id })
          : restored;
      }
      default: {
        const exhaustive: never = action;
        return exhaustive;
      }
    }
  };
}

export const playerReducer = createPlayerReducer();
