import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';

import { type PlayerActions, type QueueActions, usePlayerActions } from './player-actions';
import {
  createInitialState,
  displayDuration,
  normalizeAudioSrc,
  playerReducer,
  type PlayerState,
} from './player-machine';
import { createPlayerStore, type PlayerSnapshot, type PlayerStore } from './player-store';
import { useAudioElement } from './use-audio-element';
import { useFavourites } from './use-favourites';
import { useMediaSession } from './use-media-session';
import { usePlayReport } from './use-play-report';
import { usePlayerKeyboard } from './use-player-keyboard';
import { usePlayerPersistence } from './use-player-persistence';
import { useQueueFetch } from './use-queue-fetch';

export type { PlayerActions } from './player-actions';

/** The id of the site's single `<audio>` element (e2e tests look it up). */
export const AUDIO_ELEMENT_ID = 'site-audio';

export type PlayerContextValue = PlayerState &
  PlayerActions & {
    /** The total to show: the file's duration once known, else the track's own duration. */
    totalDuration: number;
    favourites: number[];
    /** True for a logged-in member: favourites are kept in the account, not this browser. */
    favouritesInAccount: boolean;
    /** Normalises an audio path with this site's asset host. */
    audioSrc: (path: string) => string;
  };

/**
 * What never changes while a page is open (the actions, the asset host, whether favourites are
 * kept in the account) and the store of the state: for the many small readers, such as every
 * track card, which read only their own slice of the state with `usePlayerSelector`.
 */
export type PlayerCommands = QueueActions & {
  toggleFavourite: (id: number) => void;
  favouritesInAccount: boolean;
  audioSrc: (path: string) => string;
  /** The state, for slices (`usePlayerSelector`) and for event handlers reading it at the time. */
  store: PlayerStore;
};

const PlayerContext = createContext<PlayerContextValue | null>(null);
const PlayerCommandsContext = createContext<PlayerCommands | null>(null);

/** Layout effects do nothing on the server (and React says so): effects there instead. */
const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Owns the site's single `<audio preload="none">` element and the player state. Mount it once
 * in the root layout, around `<Outlet/>` and outside anything a navigation remounts.
 * The rules live in the pure machine (player-machine.ts); each hook binds one concern to it.
 */
export function PlayerProvider({
  assetHost,
  accountFavourites = null,
  children,
}: {
  assetHost: string;
  /** A logged-in member's favourite track ids (from the root loader); null for a visitor. */
  accountFavourites?: readonly number[] | null;
  children: React.ReactNode;
}) {
  const [state, dispatch] = useReducer(playerReducer, assetHost, createInitialState);
  const audioRef = useRef<HTMLAudioElement>(null);
  const stateRef = useRef(state);
  stateRef.current = state;

  usePlayerPersistence(audioRef, state, stateRef, dispatch);
  const favouriteList = useFavourites(accountFavourites);
  const { favourites, toggleFavourite } = favouriteList;
  useAudioElement(audioRef, state, stateRef, dispatch);
  // The catalogue queue's windows, fetched by position as the machine asks for them.
  useQueueFetch(state, dispatch);
  // The fallback sound playing in a track's place is not a play of that track.
  usePlayReport(audioRef, state.usingFallback ? null : (state.current?.id ?? null));
  const actions = usePlayerActions(dispatch);
  const totalDuration = displayDuration(state);
  useMediaSession({
    actions,
    currentTrack: state.current,
    playing: state.playing,
    position: state.position,
    totalDuration,
  });
  usePlayerKeyboard(actions, stateRef);

  const audioSrc = useCallback(
    (path: string) => normalizeAudioSrc(path, state.assetHost),
    [state.assetHost],
  );

  // The store mirrors the state after each commit, before paint: only the readers whose
  // slice changed render again (not every card on each tick, restore or queue change).
  const [store] = useState(() => createPlayerStore({ player: state, favourites }));
  useIsomorphicLayoutEffect(() => {
    store.set({ player: state, favourites });
  }, [store, state, favourites]);
  // A stable toggle for the cards: the latest `toggleFavourite` behind one function.
  const toggleFavouriteRef = useRef(toggleFavourite);
  toggleFavouriteRef.current = toggleFavourite;
  const stableToggleFavourite = useCallback((id: number) => toggleFavouriteRef.current(id), []);
  const favouritesInAccount = accountFavourites !== null;
  const commands = useMemo<PlayerCommands>(
    () => ({
      ...actions,
      toggleFavourite: stableToggleFavourite,
      favouritesInAccount,
      audioSrc,
      store,
    }),
    [actions, stableToggleFavourite, favouritesInAccount, audioSrc, store],
  );

  const value = useMemo<PlayerContextValue>(
    () => ({
      ...state,
      ...actions,
      ...favouriteList,
      totalDuration,
      favouritesInAccount,
      audioSrc,
    }),
    [state, actions, favouriteList, totalDuration, favouritesInAccount, audioSrc],
  );

  return (
    <PlayerCommandsContext.Provider value={commands}>
      <PlayerContext.Provider value={value}>
        {children}
        {/* The one audio element of the site; never remounted by navigations. */}
        {/* eslint-disable-next-line jsx-a11y/media-has-caption -- instrumental music, no speech to caption */}
        <audio ref={audioRef} id={AUDIO_ELEMENT_ID} preload="none" hidden />
      </PlayerContext.Provider>
    </PlayerCommandsContext.Provider>
  );
}

/**
 * The whole player: state and actions. Its readers render again on every change of the state
 * (each position tick while playing): for the player's own UI (bar, featured player, track
 * page), not for components repeated per track — those use `usePlayerCommands` and
 * `usePlayerSelector`/`useTrackStatus`.
 */
export function usePlayer(): PlayerContextValue {
  const ctx = useContext(PlayerContext);
  if (!ctx) throw new Error('usePlayer must be used inside <PlayerProvider>');
  return ctx;
}

/** The actions and the store: stable, so reading them never re-renders on a state change. */
export function usePlayerCommands(): PlayerCommands {
  const ctx = useContext(PlayerCommandsContext);
  if (!ctx) throw new Error('usePlayerCommands must be used inside <PlayerProvider>');
  return ctx;
}

/**
 * One slice of the state: the component renders again only when `select` returns a different
 * value (compared with `Object.is`), so `select` must return a primitive or a stored reference,
 * never a new object or array.
 */
export function usePlayerSelector<T>(select: (snapshot: PlayerSnapshot) => T): T {
  const { store } = usePlayerCommands();
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getSnapshot()),
    () => select(store.getServerSnapshot()),
  );
}

/** A track's own slice: is it the current track, and is it playing. */
export function useTrackStatus(id: number): { isCurrent: boolean; isPlaying: boolean } {
  const isCurrent = usePlayerSelector((s) => s.player.current?.id === id);
  const isPlaying = usePlayerSelector((s) => s.player.current?.id === id && s.player.playing);
  return { isCurrent, isPlaying };
}
