import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import type { TrackJSON } from '~/types/entities';
import {
  createInitialState,
  displayDuration,
  normalizeAudioSrc,
  parseFavourites,
  parsePersisted,
  playerReducer,
  POSITION_REFRESH_MS,
  toPersisted,
  type PlayerState,
  type PlayerTrack,
} from './player-machine';

export const PLAYER_STORAGE_KEY = 'night-shore:player';
export const FAVOURITES_STORAGE_KEY = 'night-shore:favourites';
/** The id of the site's single `<audio>` element (e2e tests look it up). */
export const AUDIO_ELEMENT_ID = 'site-audio';
const MEDIA_SESSION_SEEK_OFFSET = 10;

type TrackInput = PlayerTrack | TrackJSON;

export type PlayerActions = {
  /** Play button on a track: toggles when it is current, else loads it and plays. */
  playTrack: (track: TrackInput) => void;
  /** Makes a track current without toggling (appended to the queue when missing). */
  loadTrack: (track: TrackInput, options?: { autoplay?: boolean }) => void;
  toggle: () => void;
  play: () => void;
  pause: () => void;
  next: () => void;
  prev: () => void;
  playIndex: (index: number) => void;
  /** Seconds, clamped to 0..duration. */
  seek: (seconds: number) => void;
  seekBy: (deltaSeconds: number) => void;
  /** 0..1, clamped. */
  setVolume: (volume: number) => void;
  toggleShuffle: () => void;
  toggleLoop: () => void;
  /** Index 0 starts at the first /uploads/audio/ track; a current track is kept by default. */
  setQueue: (tracks: TrackInput[], index?: number, options?: { keepCurrent?: boolean }) => void;
  addToQueue: (track: TrackInput) => void;
  isFavourite: (id: number) => boolean;
  toggleFavourite: (id: number) => void;
};

export type PlayerContextValue = PlayerState &
  PlayerActions & {
    /** The total to show: the file's duration once known, else the track's own duration. */
    totalDuration: number;
    favourites: number[];
    /** Normalises an audio path with this site's asset host. */
    audioSrc: (path: string) => string;
  };

const PlayerContext = createContext<PlayerContextValue | null>(null);

/** Keeps only what the player needs, so local storage stays small. */
function toPlayerTrack(t: TrackInput): PlayerTrack {
  return {
    id: t.id,
    title: t.title,
    artist: t.artist,
    album: t.album,
    duration: t.duration,
    coverImage: t.coverImage,
    audioFile: t.audioFile,
  };
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (privacy mode, sandboxed frame)
  }
}

function writeStorage(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Quota or disabled storage: the player still works, it just won't be restored.
  }
}

/** Fields where the keyboard shortcuts must not apply (typing, selecting). */
function isEditable(el: Element | null): boolean {
  if (!el || !(el instanceof HTMLElement)) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true;
  const role = el.getAttribute('role');
  return role === 'textbox' || role === 'combobox' || role === 'searchbox';
}

/** Controls that Space already activates. */
function isSpaceActivated(el: Element | null): boolean {
  if (!el || !(el instanceof HTMLElement)) return false;
  if (el.closest('button, a[href], summary, [role="button"], [role="link"]')) return true;
  const role = el.getAttribute('role');
  return !!role && /^(checkbox|switch|menuitem\w*|tab|option|radio|slider|spinbutton)$/.test(role);
}

/**
 * Owns the site's single `<audio preload="none">` element and the player state. Mount it once
 * in the root layout, around `<Outlet/>` and outside anything a navigation remounts.
 */
export function PlayerProvider({
  assetHost,
  children,
}: {
  assetHost: string;
  children: React.ReactNode;
}) {
  const [state, dispatch] = useReducer(playerReducer, assetHost, createInitialState);
  const [favourites, setFavourites] = useState<number[]>([]);
  const audioRef = useRef<HTMLAudioElement>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const loaded = useRef<{ src: string | null; nonce: number }>({ src: null, nonce: 0 });
  const appliedSeek = useRef(0);

  // Restore after hydration (the server render knows nothing of local storage).
  useEffect(() => {
    dispatch({ type: 'restore', saved: parsePersisted(readStorage(PLAYER_STORAGE_KEY)) });
    setFavourites(parseFavourites(readStorage(FAVOURITES_STORAGE_KEY)));
  }, []);

  // Load the file the state asks for. Declared before the seek and play effects, which rely
  // on the new source being in place when they run in the same commit.
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    if (loaded.current.src === state.src && loaded.current.nonce === state.loadNonce) return;
    loaded.current = { src: state.src, nonce: state.loadNonce };
    if (!state.src) {
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
      return;
    }
    audio.src = state.src;
  }, [state.src, state.loadNonce]);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || appliedSeek.current === state.seekNonce) return;
    appliedSeek.current = state.seekNonce;
    try {
      audio.currentTime = stateRef.current.position;
    } catch {
      // Not seekable yet: the position shows and is applied by the next seek.
    }
  }, [state.seekNonce]);

  // Make the element follow the wanted play state (after every change, since the element can
  // stop on its own at the end of a file or when a new source replaces the old one).
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || !state.src) return;
    if (state.playing && audio.paused) {
      audio.play().catch((error: unknown) => {
        const name = error instanceof DOMException ? error.name : '';
        // AbortError: a newer load or pause interrupted this play, nothing to undo.
        // NotSupportedError: the 'error' event drives the fallback.
        if (name === 'NotAllowedError') dispatch({ type: 'mediaPaused' });
      });
    } else if (!state.playing && !audio.paused) {
      audio.pause();
    }
  });

  useEffect(() => {
    if (audioRef.current) audioRef.current.volume = state.volume;
  }, [state.volume]);

  // Events from the element: external pauses (headphones, lock screen), the end, errors.
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    // Events are queued: by the time one runs, the element may have moved on (a pause fired
    // by a source swap while the next play() already started), so check its current state.
    const onPlay = () => {
      if (!audio.paused) dispatch({ type: 'mediaPlaying' });
    };
    const onPause = () => {
      // A pause that comes with a load error or a source swap (nothing loaded yet) is not the
      // listener's choice: the error and load handling decide what happens next.
      if (!audio.paused || audio.error || audio.readyState === HTMLMediaElement.HAVE_NOTHING) {
        return;
      }
      dispatch({ type: 'timeUpdate', position: audio.currentTime });
      if (!audio.ended) dispatch({ type: 'mediaPaused' });
    };
    const onEnded = () => dispatch({ type: 'ended', random: Math.random() });
    const onError = () => {
      const src = loaded.current.src;
      if (src && audio.getAttribute('src')) dispatch({ type: 'loadError', src });
    };
    const onDuration = () => dispatch({ type: 'durationChange', duration: audio.duration });
    const onSeeked = () => dispatch({ type: 'timeUpdate', position: audio.currentTime });
    audio.addEventListener('play', onPlay);
    audio.addEventListener('pause', onPause);
    audio.addEventListener('ended', onEnded);
    audio.addEventListener('error', onError);
    audio.addEventListener('loadedmetadata', onDuration);
    audio.addEventListener('durationchange', onDuration);
    audio.addEventListener('seeked', onSeeked);
    return () => {
      audio.removeEventListener('play', onPlay);
      audio.removeEventListener('pause', onPause);
      audio.removeEventListener('ended', onEnded);
      audio.removeEventListener('error', onError);
      audio.removeEventListener('loadedmetadata', onDuration);
      audio.removeEventListener('durationchange', onDuration);
      audio.removeEventListener('seeked', onSeeked);
    };
  }, []);

  // Position refresh every second while playing (SPEC §9).
  useEffect(() => {
    const audio = audioRef.current;
    if (!state.playing || !audio) return;
    const id = window.setInterval(() => {
      dispatch({ type: 'timeUpdate', position: audio.currentTime });
    }, POSITION_REFRESH_MS);
    return () => window.clearInterval(id);
  }, [state.playing]);

  // Persist (only after the saved state was read, so it is never overwritten by defaults).
  useEffect(() => {
    if (!state.restored) return;
    writeStorage(PLAYER_STORAGE_KEY, JSON.stringify(toPersisted(state)));
  }, [state]);

  useEffect(() => {
    const onPageHide = () => {
      const s = stateRef.current;
      const audio = audioRef.current;
      if (!s.restored) return;
      const position = audio && s.current ? audio.currentTime : s.position;
      writeStorage(PLAYER_STORAGE_KEY, JSON.stringify(toPersisted({ ...s, position })));
    };
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, []);

  const actions = useMemo(() => {
    const a: Omit<PlayerActions, 'isFavourite' | 'toggleFavourite'> = {
      playTrack: (track) => dispatch({ type: 'playTrack', track: toPlayerTrack(track) }),
      loadTrack: (track, options) =>
        dispatch({ type: 'load', track: toPlayerTrack(track), autoplay: !!options?.autoplay }),
      toggle: () => dispatch({ type: 'toggle' }),
      play: () => dispatch({ type: 'play' }),
      pause: () => dispatch({ type: 'pause' }),
      next: () => dispatch({ type: 'next', random: Math.random() }),
      prev: () => dispatch({ type: 'prev', random: Math.random() }),
      playIndex: (index) => dispatch({ type: 'playIndex', index }),
      seek: (position) => dispatch({ type: 'seek', position }),
      seekBy: (delta) => dispatch({ type: 'seekBy', delta }),
      setVolume: (volume) => dispatch({ type: 'setVolume', volume }),
      toggleShuffle: () => dispatch({ type: 'toggleShuffle' }),
      toggleLoop: () => dispatch({ type: 'toggleLoop' }),
      setQueue: (tracks, index = 0, options) =>
        dispatch({
          type: 'setQueue',
          tracks: tracks.map(toPlayerTrack),
          index,
          keepCurrent: options?.keepCurrent,
        }),
      addToQueue: (track) => dispatch({ type: 'addToQueue', track: toPlayerTrack(track) }),
    };
    return a;
  }, []);

  // Media Session: lock-screen, notification and headphone controls.
  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    const ms = navigator.mediaSession;
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => actions.play()],
      ['pause', () => actions.pause()],
      ['nexttrack', () => actions.next()],
      ['previoustrack', () => actions.prev()],
      [
        'seekto',
        (d) => {
          if (typeof d.seekTime === 'number') actions.seek(d.seekTime);
        },
      ],
      ['seekbackward', (d) => actions.seekBy(-(d.seekOffset ?? MEDIA_SESSION_SEEK_OFFSET))],
      ['seekforward', (d) => actions.seekBy(d.seekOffset ?? MEDIA_SESSION_SEEK_OFFSET)],
    ];
    for (const [action, handler] of handlers) {
      try {
        ms.setActionHandler(action, handler);
      } catch {
        // This browser does not know the action.
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          ms.setActionHandler(action, null);
        } catch {
          // idem
        }
      }
    };
  }, [actions]);

  const currentTrack = state.current;
  useEffect(() => {
    if (!('mediaSession' in navigator) || typeof MediaMetadata === 'undefined') return;
    const t = currentTrack;
    navigator.mediaSession.metadata = t
      ? new MediaMetadata({
          title: t.title,
          artist: t.artist,
          album: t.album ?? '',
          artwork: t.coverImage ? [{ src: t.coverImage }] : [],
        })
      : null;
  }, [currentTrack]);

  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    navigator.mediaSession.playbackState = !currentTrack
      ? 'none'
      : state.playing
        ? 'playing'
        : 'paused';
  }, [currentTrack, state.playing]);

  const totalDuration = displayDuration(state);
  useEffect(() => {
    if (!('mediaSession' in navigator) || !navigator.mediaSession.setPositionState) return;
    if (!currentTrack || !(totalDuration > 0)) return;
    try {
      navigator.mediaSession.setPositionState({
        duration: totalDuration,
        position: Math.min(state.position, totalDuration),
        playbackRate: 1,
      });
    } catch {
      // Inconsistent values while a file loads: the next refresh fixes them.
    }
  }, [currentTrack, state.position, totalDuration]);

  // Keyboard: Space toggles, Ctrl/Cmd + Right next, Ctrl/Cmd + Left previous.
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.isComposing) return;
      const target = e.target instanceof Element ? e.target : document.activeElement;
      if (isEditable(target) || isEditable(document.activeElement)) return;
      const mod = e.ctrlKey || e.metaKey;
      if ((e.key === ' ' || e.code === 'Space') && !mod && !e.shiftKey) {
        if (isSpaceActivated(target)) return;
        if (!stateRef.current.current) return;
        e.preventDefault();
        if (!e.repeat) actions.toggle();
      } else if (mod && !e.shiftKey && e.key === 'ArrowRight') {
        if (!stateRef.current.current) return;
        e.preventDefault();
        actions.next();
      } else if (mod && !e.shiftKey && e.key === 'ArrowLeft') {
        if (!stateRef.current.current) return;
        e.preventDefault();
        actions.prev();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [actions]);

  const isFavourite = useCallback((id: number) => favourites.includes(id), [favourites]);
  const toggleFavourite = useCallback((id: number) => {
    setFavourites((prev) => {
      const nextIds = prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id];
      writeStorage(FAVOURITES_STORAGE_KEY, JSON.stringify(nextIds));
      return nextIds;
    });
  }, []);

  const audioSrc = useCallback(
    (path: string) => normalizeAudioSrc(path, state.assetHost),
    [state.assetHost],
  );

  const value = useMemo<PlayerContextValue>(
    () => ({
      ...state,
      ...actions,
      totalDuration,
      favourites,
      isFavourite,
      toggleFavourite,
      audioSrc,
    }),
    [state, actions, totalDuration, favourites, isFavourite, toggleFavourite, audioSrc],
  );

  return (
    <PlayerContext.Provider value={value}>
      {children}
      {/* The one audio element of the site; never remounted by navigations. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption -- instrumental music, no speech to caption */}
      <audio ref={audioRef} id={AUDIO_ELEMENT_ID} preload="none" hidden />
    </PlayerContext.Provider>
  );
}

export function usePlayer(): PlayerContextValue {
  const ctx = useContext(PlayerContext);
  if (!ctx) throw new Error('usePlayer must be used inside <PlayerProvider>');
  return ctx;
}
