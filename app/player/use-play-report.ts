import { type RefObject, useEffect } from 'react';

import { PLAY_AFTER_SECONDS, PLAY_TOKEN_REUSE_MS } from '~/types/constants';

import { listen } from './listen';

let issued: { token: string; at: number } | null = null;

/** This client's play token, asked once and reused; null when it cannot be had. */
async function playToken(): Promise<string | null> {
  if (issued && Date.now() - issued.at < PLAY_TOKEN_REUSE_MS) return issued.token;
  try {
    const response = await fetch('/api/plays/token', { cache: 'no-store' });
    if (!response.ok) return null;
    const { token } = (await response.json()) as { token?: unknown };
    if (typeof token !== 'string') return null;
    issued = { token, at: Date.now() };
    return token;
  } catch {
    return null;
  }
}

/**
 * Report a play to the site's statistics (decision 024): once the current track has sounded
 * for PLAY_AFTER_SECONDS (time actually played: seeks do not count) or reached its end,
 * `POST /api/plays` with `navigator.sendBeacon`, which survives leaving the page, carrying the
 * client's play token (asked for when a track is loaded, so the report needs no fetch first).
 * Once per track load; the server counts a client once per track in 30 minutes.
 */
export function usePlayReport(audioRef: RefObject<HTMLAudioElement>, trackId: number | null) {
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || trackId === null) return;
    let heard = 0;
    let last = audio.currentTime;
    let sent = false;
    const token = playToken();
    const send = (value: string | null) => {
      const body = new Blob([JSON.stringify({ trackId, ...(value ? { token: value } : {}) })], {
        type: 'application/json',
      });
      if (navigator.sendBeacon?.('/api/plays', body)) return;
      void fetch('/api/plays', { method: 'POST', body, keepalive: true }).catch(() => undefined);
    };
    const report = () => {
      if (sent) return;
      sent = true;
      void token.then(send);
    };
    const onTime = () => {
      const now = audio.currentTime;
      const step = now - last;
      last = now;
      // timeupdate fires a few times a second while playing; a bigger jump is a seek.
      if (step > 0 && step < 2) heard += step;
      if (heard >= PLAY_AFTER_SECONDS) report();
    };
    const onSeeked = () => {
      last = audio.currentTime;
    };
    return listen<HTMLMediaElementEventMap>(audio, {
      timeupdate: onTime,
      seeked: onSeeked,
      ended: report,
    });
  }, [audioRef, trackId]);
}
