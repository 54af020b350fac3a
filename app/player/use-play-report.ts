import { type RefObject, useEffect } from 'react';

/** How long a track must have sounded to count as a play (or it reached its end). */
export const PLAY_REPORT_SECONDS = 30;

/**
 * Report a play to the site's statistics (decision 024): once the current track has sounded
 * for PLAY_REPORT_SECONDS (time actually played: seeks do not count) or reached its end,
 * `POST /api/plays` with `navigator.sendBeacon`, which survives leaving the page. Once per
 * track load; the server counts a client once per track in 30 minutes.
 */
export function usePlayReport(audioRef: RefObject<HTMLAudioElement>, trackId: number | null) {
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || trackId === null) return;
    let heard = 0;
    let last = audio.currentTime;
    let sent = false;
    const report = () => {
      if (sent) return;
      sent = true;
      const body = new Blob([JSON.stringify({ trackId })], { type: 'application/json' });
      if (navigator.sendBeacon?.('/api/plays', body)) return;
      void fetch('/api/plays', { method: 'POST', body, keepalive: true }).catch(() => undefined);
    };
    const onTime = () => {
      const now = audio.currentTime;
      const step = now - last;
      last = now;
      // timeupdate fires a few times a second while playing; a bigger jump is a seek.
      if (step > 0 && step < 2) heard += step;
      if (heard >= PLAY_REPORT_SECONDS) report();
    };
    const onSeeked = () => {
      last = audio.currentTime;
    };
    audio.addEventListener('timeupdate', onTime);
    audio.addEventListener('seeked', onSeeked);
    audio.addEventListener('ended', report);
    return () => {
      audio.removeEventListener('timeupdate', onTime);
      audio.removeEventListener('seeked', onSeeked);
      audio.removeEventListener('ended', report);
    };
  }, [audioRef, trackId]);
}
