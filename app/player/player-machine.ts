/**
 * The persistent player's rules as a pure state machine (queue, shuffle, loop, fallback, volume).
 *
 * No React, no DOM: `player-provider.tsx` binds this reducer to the single `<audio>` element.
 * The element is told what to do through the state: `src` + `loadNonce` (load this file),
 * `playing` (wanted play state), `position` + `seekNonce` (jump there).
 */
import type { TrackJSON, TracklistRow } from '~/types/entities';
import { formatClock } from '~/utils/media-time';

export const FALLBACK_AUDIO_PATH = '/uploads/audio/fallback.mp3';
export const UPLOADS_AUDIO_SEGMENT = '/uploads/audio/';
export const DEFAULT_VOLUME = 0.8;
export const POSITION_REFRESH_MS = 1000;
export const SEEK_STEP_SECONDS = 0.1;
export const FEATURED_SEEK_SECONDS = 10;
export const PLAY_START_DELAY_MS = 100;

/**
 * The part of a track the player needs (a full `TrackJSON` fits). `tracklist`: a mix's rows,
 * for the bar's "Now: Artist – Title" (left out when empty, so the saved queue stays small).
 */
export type PlayerTrack = Pick<
  TrackJSON,
  'id' | 'title' | 'artist' | 'album' | 'duration' | 'coverImage' | 'audioFile'
> & { tracklist?: TracklistRow[] };

export type PlayerState = {
  queue: PlayerTrack[];
  /** Index of `current` in `queue`; -1 when there is no current track or it left the queue. */
  index: number;
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
  queue: PlayerTrack[];
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
    queue: [],
    index: -1,
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

function stripTrailingSlashes(s: string): string {
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

export function nextIndex(state: PlayerState, random: number): number {
  const n = state.queue.length;
  if (n === 0) return -1;
  if (state.shuffle && n > 1) return randomOtherIndex(n, state.index, random);
  return (state.index + 1 + n) % n;
}

export function prevIndex(state: PlayerState, random: number): number {
  const n = state.queue.length;
  if (n === 0) return -1;
  if (state.shuffle && n > 1) return randomOtherIndex(n, state.index, random);
  if (state.index < 0) return n - 1;
  return (state.index - 1 + n) % n;
}

/** 'm:ss' (or 'h:mm:ss') to seconds; 0 when it can't be read. */
export function parseDuration(text: string | null | undefined): number {
  if (!text) return 0;
  const parts = text.trim().split(':');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) return 0;
  return parts.reduce((acc, p) => acc * 60 + Number(p), 0);
}

/** Seconds as m:ss, and as h:mm:ss from an hour on (a long set reads 1:02:30, decision 034). */
export function formatTime(seconds: number): string {
  return formatClock(seconds);
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
  return parseDuration(state.current?.duration);
}

export function volumeLevel(volume: number): 'high' | 'low' | 'muted' {
  if (volume > 0.5) return 'high';
  if (volume > 0) return 'low';
  return 'muted';
}

function withTrack(
  state: PlayerState,
  queue: PlayerTrack[],
  index: number,
  playing: boolean,
): PlayerState {
  const track = index >= 0 ? queue[index] : undefined;
  if (!track) return { ...state, queue, index: -1 };
  return {
    ...state,
    queue,
    index,
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

function moveTo(state: PlayerState, index: number): PlayerState {
  if (index < 0) return state;
  // Moving keeps playing when playing (and starts when the current track had failed).
  return withTrack(state, state.queue, index, state.playing);
}

/** The state with the position moved to `startAt` (when given), applied by the element. */
function startingAt(state: PlayerState, startAt: number | undefined): PlayerState {
  if (startAt === undefined || !Number.isFinite(startAt)) return state;
  const position = clampPosition(startAt, displayDuration(state));
  return { ...state, position, seekNonce: state.seekNonce + 1 };
}

function loadTrack(state: PlayerState, track: PlayerTrack, autoplay: boolean): PlayerState {
  if (!isLoadable(track)) return state;
  const i = state.queue.findIndex((t) => t.id === track.id);
  if (i === -1) {
    const queue = [...state.queue, track];
    return withTrack(state, queue, queue.length - 1, autoplay);
  }
  // Refresh the stored copy (the file or title may have changed since it was queued).
  const queue = state.queue.slice();
  queue[i] = track;
  return withTrack(state, queue, i, autoplay);
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
        return moveTo(state, nextIndex(state, action.random ?? random()));
      case 'prev':
        return moveTo(state, prevIndex(state, action.random ?? random()));
      case 'playIndex': {
        const track = state.queue[action.index];
        if (!track) return state;
        return loadTrack(state, track, true);
      }
      case 'ended': {
        if (!state.current) return state;
        if (state.loop) {
          return { ...state, playing: true, position: 0, seekNonce: state.seekNonce + 1 };
        }
        const i = nextIndex(state, action.random ?? random());
        // Nothing else to play (a queue of just this track): stop at the start rather than
        // looping forever, which would make the loop toggle meaningless.
        if (i < 0 || (i === state.index && state.queue.length === 1)) {
          return { ...state, playing: false, position: 0, seekNonce: state.seekNonce + 1 };
        }
        return withTrack(state, state.queue, i, true);
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
        return { ...state, shuffle: !state.shuffle };
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
            return { ...state, queue: tracks, index: i };
          }
        }
        const start = resolveStartIndex(tracks, action.index);
        if (start < 0) {
          return { ...state, queue: [], index: -1, current: null, src: null, playing: false };
        }
        return withTrack(state, tracks, start, false);
      }
      case 'addToQueue': {
        if (!isLoadable(action.track)) return state;
        if (state.queue.some((t) => t.id === action.track.id)) return state;
        const queue = [...state.queue, action.track];
        if (!state.current) return withTrack(state, queue, queue.length - 1, false);
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
        const queue = saved.queue.filter(isLoadable);
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
        const index = queue.findIndex((t) => t.id === current.id);
        return {
          ...base,
          index,
          current,
          src: normalizeAudioSrc(current.audioFile, state.assetHost),
          loadNonce: state.loadNonce + 1,
          usingFallback: false,
          failed: false,
          // Restored paused: browsers refuse to start audio without a user gesture anyway.
          playing: false,
          position: clampPosition(saved.position, parseDuration(current.duration) || Infinity),
          duration: 0,
          seekNonce: state.seekNonce + 1,
        };
      }
      default: {
        const exhaustive: never = action;
        return exhaustive;
      }
    }
  };
}

export const playerReducer = createPlayerReducer();

/** What is kept in local storage. */
export function toPersisted(state: PlayerState): PersistedPlayerState {
  return {
    queue: state.queue,
    index: state.index,
    current: state.current,
    position: Math.floor(state.position * 10) / 10,
    volume: state.volume,
    shuffle: state.shuffle,
    loop: state.loop,
  };
}

function readTrack(value: unknown): PlayerTrack | null {
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
  const queue = Array.isArray(d.queue)
    ? d.queue.map(readTrack).filter((t): t is PlayerTrack => t !== null)
    : [];
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
