import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { getViewer } from '~/auth/auth.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import {
  findQueuePositionOf,
  findQueueStartFor,
  findQueueWindowFor,
  MAX_QUEUE_COUNT,
} from '~/models/track-queue.server';
import type { QueueWindowJSON } from '~/types/queue';

const DEFAULT_COUNT = 20;
const MAX_POSITION = 1_000_000_000;

/** `count`: 1.. (at most MAX_QUEUE_COUNT), DEFAULT_COUNT when absent; null when invalid. */
function countParam(search: URLSearchParams): number | null {
  const raw = search.get('count');
  if (raw === null) return DEFAULT_COUNT;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1) return null;
  return Math.min(Number(raw), MAX_QUEUE_COUNT);
}

/** What the request asks about: a position, the start of the queue, or a track. */
type Ask = { position: number } | { start: true } | { track: number };

function askParam(search: URLSearchParams): Ask | string {
  const position = search.get('position');
  const track = search.get('track');
  if ((position === null) === (track === null)) return 'Give either position or track';
  if (position === 'start') return { start: true };
  if (position !== null) {
    if (!/^\d{1,10}$/.test(position) || Number(position) > MAX_POSITION) return 'Invalid position';
    return { position: Number(position) };
  }
  if (!/^\d{1,15}$/.test(track ?? '') || !Number.isSafeInteger(Number(track)) || !Number(track)) {
    return 'Invalid track';
  }
  return { track: Number(track) };
}

/**
 * GET /api/tracks/queue — the player's queue (every track, newest first) a window at a time
 * (issue 37). `?position=N&count=K`: positions N..N+K-1. `?position=start`: the window from
 * the position where /music starts the queue. `?track=ID`: the window around that track.
 * Only the player's fields; members-only tracks locked for a visitor, as everywhere.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const search = new URL(request.url).searchParams;
    for (const name of ['position', 'track', 'count']) {
      if (search.getAll(name).length > 1) return apiError(400, `${name} must be given once`);
    }
    const count = countParam(search);
    if (count === null) return apiError(400, 'Invalid count');
    const ask = askParam(search);
    if (typeof ask === 'string') return apiError(400, ask);
    const viewer = await getViewer(request);

    let at: number | null;
    let position: number;
    if ('position' in ask) {
      at = ask.position;
      position = ask.position;
    } else {
      at = 'start' in ask ? await findQueueStartFor(viewer) : await findQueuePositionOf(ask.track);
      // A track's window holds a few before it (for previous), the start's begins there.
      position = at === null ? 0 : 'start' in ask ? at : Math.max(0, at - Math.floor(count / 4));
    }
    const { total, tracks } = await findQueueWindowFor(viewer, position, count);
    const body: QueueWindowJSON = { total, position, at, tracks };
    return apiJson(body, { headers: publicCacheHeaders(request) });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
