import { type Dispatch, useMemo } from 'react';

import type { TrackJSON } from '~/types/entities';

import { type PlayerAction, type PlayerTrack, toPlayerTrack } from './player-machine';

export type TrackInput = PlayerTrack | TrackJSON;

export type PlayerActions = {
  /** Play button on a track: toggles when it is current, else loads it and plays. */
  playTrack: (track: TrackInput) => void;
  /**
   * Makes a track current without toggling (appended to the queue when missing); `startAt`
   * (seconds) moves the position there, also for the current track.
   */
  loadTrack: (track: TrackInput, options?: { autoplay?: boolean; startAt?: number }) => void;
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
  /**
   * /music: the queue becomes every track (`size`, newest first); `tracks` (null: one this
   * listener cannot play) stand at positions `offset`.., or at unknown ones when it is null.
   */
  setCatalogue: (size: number, offset: number | null, tracks: (TrackInput | null)[]) => void;
  isFavourite: (id: number) => boolean;
  toggleFavourite: (id: number) => void;
};

/** The queue and playback actions: each dispatches one machine action. */
export type QueueActions = Omit<PlayerActions, 'isFavourite' | 'toggleFavourite'>;

/** The actions, stable for the provider's lifetime (the random draws happen here, not in the machine). */
export function usePlayerActions(dispatch: Dispatch<PlayerAction>): QueueActions {
  return useMemo(() => {
    const a: QueueActions = {
      playTrack: (track) => dispatch({ type: 'playTrack', track: toPlayerTrack(track) }),
      loadTrack: (track, options) =>
        dispatch({
          type: 'load',
          track: toPlayerTrack(track),
          autoplay: !!options?.autoplay,
          startAt: options?.startAt,
        }),
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
      setCatalogue: (size, offset, tracks) =>
        dispatch({
          type: 'setCatalogue',
          size,
          offset,
          tracks: tracks.map((t) => (t ? toPlayerTrack(t) : null)),
        }),
    };
    return a;
  }, [dispatch]);
}
