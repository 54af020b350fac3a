import { createContext, useCallback, useContext, useMemo, useReducer, useRef } from 'react';

import { type PlayerActions, usePlayerActions } from './player-actions';
import {
  createInitialState,
  displayDuration,
  normalizeAudioSrc,
  playerReducer,
  type PlayerState,
} from './player-machine';
import { useAudioElement } from './use-audio-element';
import { useFavourites } from './use-favourites';
import { useMediaSession } from './use-media-session';
import { usePlayReport } from './use-play-report';
import { usePlayerKeyboard } from './use-player-keyboard';
import { usePlayerPersistence } from './use-player-persistence';

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

const PlayerContext = createContext<PlayerContextValue | null>(null);

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
  const { favourites, isFavourite, toggleFavourite } = useFavourites(accountFavourites);
  useAudioElement(audioRef, state, stateRef, dispatch);
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

  const value = useMemo<PlayerContextValue>(
    () => ({
      ...state,
      ...actions,
      totalDuration,
      favourites,
      favouritesInAccount: accountFavourites !== null,
      isFavourite,
      toggleFavourite,
      audioSrc,
    }),
    [
      state,
      actions,
      totalDuration,
      favourites,
      accountFavourites,
      isFavourite,
      toggleFavourite,
      audioSrc,
    ],
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
