import { useEffect } from 'react';

import type { QueueActions } from './player-actions';
import type { PlayerTrack } from './player-machine';

const MEDIA_SESSION_SEEK_OFFSET = 10;

/**
 * The Media Session API: lock-screen, notification and headphone controls call the player's
 * actions, and the system shows the current track, the play state and the position.
 */
export function useMediaSession({
  actions,
  currentTrack,
  playing,
  position,
  totalDuration,
}: {
  actions: QueueActions;
  currentTrack: PlayerTrack | null;
  playing: boolean;
  position: number;
  totalDuration: number;
}) {
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
    navigator.mediaSession.playbackState = !currentTrack ? 'none' : playing ? 'playing' : 'paused';
  }, [currentTrack, playing]);

  useEffect(() => {
    if (!('mediaSession' in navigator) || !navigator.mediaSession.setPositionState) return;
    if (!currentTrack || !(totalDuration > 0)) return;
    try {
      navigator.mediaSession.setPositionState({
        duration: totalDuration,
        position: Math.min(position, totalDuration),
        playbackRate: 1,
      });
    } catch {
      // Inconsistent values while a file loads: the next refresh fixes them.
    }
  }, [currentTrack, position, totalDuration]);
}
