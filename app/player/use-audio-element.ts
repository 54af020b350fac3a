import { type Dispatch, type MutableRefObject, type RefObject, useEffect, useRef } from 'react';

import { listen } from './listen';
import { type PlayerAction, type PlayerState, POSITION_REFRESH_MS } from './player-machine';

/**
 * Binds the machine to the `<audio>` element, both ways: the element follows the state
 * (source, seeks, play/pause, volume) and the element's events feed the machine (external
 * pauses, the end of a file, load errors, duration, the position while playing).
 */
export function useAudioElement(
  audioRef: RefObject<HTMLAudioElement>,
  state: PlayerState,
  stateRef: MutableRefObject<PlayerState>,
  dispatch: Dispatch<PlayerAction>,
) {
  const loaded = useRef<{ src: string | null; nonce: number }>({ src: null, nonce: 0 });
  const appliedSeek = useRef(0);

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
  }, [audioRef, state.src, state.loadNonce]);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || appliedSeek.current === state.seekNonce) return;
    appliedSeek.current = state.seekNonce;
    try {
      audio.currentTime = stateRef.current.position;
    } catch {
      // Not seekable yet: the position shows and is applied by the next seek.
    }
  }, [audioRef, stateRef, state.seekNonce]);

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
  }, [audioRef, state.volume]);

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
    return listen<HTMLMediaElementEventMap>(audio, {
      play: onPlay,
      pause: onPause,
      ended: onEnded,
      error: onError,
      loadedmetadata: onDuration,
      durationchange: onDuration,
      seeked: onSeeked,
    });
  }, [audioRef, dispatch]);

  // The shown position is refreshed once a second while playing.
  useEffect(() => {
    const audio = audioRef.current;
    if (!state.playing || !audio) return;
    const id = window.setInterval(() => {
      dispatch({ type: 'timeUpdate', position: audio.currentTime });
    }, POSITION_REFRESH_MS);
    return () => window.clearInterval(id);
  }, [audioRef, dispatch, state.playing]);
}
