import { type Dispatch, type MutableRefObject, type RefObject, useEffect } from 'react';

import { parsePersisted, type PlayerAction, type PlayerState, toPersisted } from './player-machine';
import { PLAYER_STORAGE_KEY, readStorage, writeStorage } from './player-storage';

/**
 * Keeps the queue, current track, position, volume and modes in local storage: restored
 * after hydration, saved on every change and, with the element's exact position, on pagehide.
 */
export function usePlayerPersistence(
  audioRef: RefObject<HTMLAudioElement>,
  state: PlayerState,
  stateRef: MutableRefObject<PlayerState>,
  dispatch: Dispatch<PlayerAction>,
) {
  // Restore after hydration (the server render knows nothing of local storage).
  useEffect(() => {
    dispatch({ type: 'restore', saved: parsePersisted(readStorage(PLAYER_STORAGE_KEY)) });
  }, [dispatch]);

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
  }, [audioRef, stateRef]);
}
