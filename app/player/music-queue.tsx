import { useEffect, useRef } from 'react';

import type { TrackView } from '~/types/entities';
import { isPlayable } from '~/utils/access';

import { usePlayerCommands, usePlayerSelector } from './player-provider';

/**
 * For /music: queues all tracks this visitor may play (not the locked ones), starting at the first uploaded one (under /uploads/audio/),
 * without starting playback; a current track that is in the list keeps playing. With
 * `?track={id}` that track is loaded (current, paused: browsers refuse autoplay anyway).
 * Runs once the saved player state has been restored, so it is not overwritten by it.
 */
export function useMusicQueue(listed: TrackView[], trackId: number | null) {
  // The page reads only `restored`: filling the queue must not re-render the page and its cards.
  const { setQueue, loadTrack } = usePlayerCommands();
  const restored = usePlayerSelector((s) => s.player.restored);
  const tracks = listed.filter(isPlayable);
  const ids = tracks.map((t) => t.id).join(',');
  const applied = useRef<string | null>(null);
  const latest = useRef(tracks);
  latest.current = tracks;

  useEffect(() => {
    if (!restored) return;
    const key = `${ids}|${trackId ?? ''}`;
    if (applied.current === key) return;
    applied.current = key;
    const all = latest.current;
    setQueue(all, 0);
    if (trackId !== null) {
      const chosen = all.find((t) => t.id === trackId);
      if (chosen) loadTrack(chosen, { autoplay: false });
    }
  }, [restored, ids, trackId, setQueue, loadTrack]);
}

/** Reads `?track=` from a URL's search params (a positive integer, or null). */
export function trackIdFromSearch(search: URLSearchParams): number | null {
  const raw = search.get('track');
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
