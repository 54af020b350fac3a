import { type Dispatch, useEffect, useRef } from 'react';

import type { QueueTrackJSON, QueueWindowJSON } from '~/types/queue';

import {
  type PlayerAction,
  type PlayerState,
  type QueueRequest,
  toPlayerTrack,
} from './player-machine';
import { QUEUE_FETCH_COUNT, type QueueSlot } from './player-queue';
import { prefetchNeeds } from './player-transitions';

/** The endpoint of the catalogue queue (docs/api.md). */
export const QUEUE_ENDPOINT = '/api/tracks/queue';

/** What a fetched position holds for the player: a track, or null when it cannot be played. */
export function toSlot(t: QueueTrackJSON): QueueSlot {
  if (t.locked || !t.audioFile) return null;
  return toPlayerTrack({ ...t, audioFile: t.audioFile });
}

/** The window to ask for so that `position` is in it, read in `direction`. */
export function windowUrl(position: number, direction: 1 | -1): string {
  const from = direction === 1 ? position : Math.max(0, position - QUEUE_FETCH_COUNT + 1);
  return `${QUEUE_ENDPOINT}?position=${from}&count=${QUEUE_FETCH_COUNT}`;
}

function requestUrl(request: QueueRequest): string {
  switch (request.kind) {
    case 'move':
      return windowUrl(request.position, request.direction);
    case 'start':
      return `${QUEUE_ENDPOINT}?position=start&count=${QUEUE_FETCH_COUNT}`;
    case 'locate':
      return `${QUEUE_ENDPOINT}?track=${request.trackId}&count=${QUEUE_FETCH_COUNT}`;
  }
}

async function fetchWindow(url: string): Promise<QueueWindowJSON> {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as QueueWindowJSON;
}

const windowAction = (w: QueueWindowJSON, requestId: number | null): PlayerAction => ({
  type: 'queueWindow',
  requestId,
  total: w.total,
  position: w.position,
  at: w.at,
  tracks: w.tracks.map(toSlot),
});

/**
 * Binds the machine's queue requests to `GET /api/tracks/queue`: one small JSON fetch per
 * request (a tap on next whose position is not loaded yet), and, once a track is current, a
 * prefetch of the windows next, previous and the drawn shuffle position would need.
 */
export function useQueueFetch(state: PlayerState, dispatch: Dispatch<PlayerAction>) {
  const inFlight = useRef(new Set<string>());
  // Each window is prefetched once per size of the catalogue (a window that came back without
  // the position, the catalogue having changed meanwhile, is not asked for again and again).
  const prefetched = useRef(new Set<string>());
  const { request } = state;

  useEffect(() => {
    if (!request) return;
    fetchWindow(requestUrl(request)).then(
      (w) => dispatch(windowAction(w, request.id)),
      () => dispatch({ type: 'queueFailed', requestId: request.id }),
    );
    // One fetch per request (its id), not per state change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request?.id, dispatch]);

  const catalogue = state.queue.source === 'catalogue';
  useEffect(() => {
    if (!catalogue || state.index < 0 || state.request) return;
    if (state.shuffle && state.shuffleNext === null) {
      dispatch({ type: 'drawShuffle', random: Math.random() });
      return;
    }
    for (const need of prefetchNeeds(state)) {
      const url = windowUrl(need.position, need.direction);
      const key = `${url}|${state.queue.size}`;
      if (inFlight.current.has(url) || prefetched.current.has(key)) continue;
      if (prefetched.current.size > 500) prefetched.current.clear();
      prefetched.current.add(key);
      inFlight.current.add(url);
      fetchWindow(url)
        .then((w) => dispatch(windowAction(w, null)))
        .catch(() => {
          // A prefetch that fails is made again by the tap that needs it.
        })
        .finally(() => inFlight.current.delete(url));
    }
    // Runs when the current position, the loaded windows or the shuffle draw change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [catalogue, state.index, state.queue, state.shuffle, state.shuffleNext, state.request]);
}
