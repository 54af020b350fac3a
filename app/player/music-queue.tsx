import { useEffect, useRef } from 'react';

import type { TrackView } from '~/types/entities';
import { isPlayable } from '~/utils/access';

import { usePlayerCommands, usePlayerSelector } from './player-provider';

/** What /music's loader tells the player about its queue (issue 37). */
export type MusicQueueInfo = {
  /** The tracks the page shows. */
  tracks: TrackView[];
  /** Every track (unfiltered): the size of the queue. */
  queueSize: number;
  /** Where the page's first track stands in the queue; null for a search or a filter. */
  queueOffset: number | null;
};

/**
 * For /music: the queue becomes every track, newest first (SPEC §4: "Opening the page puts all
 * tracks into the play queue"), without the page carrying them: the player knows the queue's
 * size and the page's tracks at their positions, and fetches the others by position as it needs
 * them (player-queue.ts, use-queue-fetch.ts). It starts at the first track the visitor may play
 * whose file is under /uploads/audio/ (found on the first page, else asked of the server),
 * without starting playback; a current track that is playing keeps playing. With `?track={id}`
 * that track is loaded (current, paused: browsers refuse autoplay anyway). Runs once the saved
 * player state has been restored, so it is not overwritten by it.
 */
export function useMusicQueue(info: MusicQueueInfo, trackId: number | null) {
  // The page reads only `restored`: filling the queue must not re-render the page and its cards.
  const { setCatalogue, loadTrack } = usePlayerCommands();
  const restored = usePlayerSelector((s) => s.player.restored);
  const { tracks, queueSize, queueOffset } = info;
  const ids = tracks.map((t) => `${t.id}${isPlayable(t) ? '' : '-'}`).join(',');
  const applied = useRef<string | null>(null);
  const latest = useRef(tracks);
  latest.current = tracks;

  useEffect(() => {
    if (!restored) return;
    const key = `${queueSize}|${queueOffset ?? ''}|${ids}|${trackId ?? ''}`;
    if (applied.current === key) return;
    applied.current = key;
    const shown = latest.current;
    setCatalogue(
      queueSize,
      queueOffset,
      shown.map((t) => (isPlayable(t) ? t : null)),
    );
    if (trackId === null) return;
    const chosen = shown.find((t) => t.id === trackId);
    if (chosen) {
      if (isPlayable(chosen)) loadTrack(chosen, { autoplay: false });
      return;
    }
    // A track on another page: its own record (the player then finds its position).
    void fetch(`/api/tracks/${trackId}`)
      .then((r) => (r.ok ? (r.json() as Promise<TrackView>) : null))
      .then((t) => {
        if (t && isPlayable(t)) loadTrack(t, { autoplay: false });
      })
      .catch(() => {
        // Not found or offline: the queue stays as it is.
      });
  }, [restored, ids, queueSize, queueOffset, trackId, setCatalogue, loadTrack]);
}

/** Reads `?track=` from a URL's search params (a positive integer, or null). */
export function trackIdFromSearch(search: URLSearchParams): number | null {
  const raw = search.get('track');
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
