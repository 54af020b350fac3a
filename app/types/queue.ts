import type { TrackJSON } from './entities';

/**
 * One position of the player's queue as `GET /api/tracks/queue` answers it (issue 37): only what
 * the player needs, no description or tracklist. `locked: true` (members-only, for a visitor):
 * no `audioFile`; `audioFile: null`: the track's stream is not ready (processing or failed).
 */
export type QueueTrackJSON = Pick<
  TrackJSON,
  'id' | 'title' | 'artist' | 'album' | 'coverImage' | 'duration' | 'type'
> &
  ({ audioFile: string | null; locked: false } | { locked: true });

/**
 * A window of the queue: every track, newest first (`createdAt` then `id`, descending, as /music
 * lists them). `tracks[i]` stands at `position + i`; `total` counts every track (unfiltered).
 * `at`: the position the request asked about — the start position (`?position=start`), the
 * track's position (`?track=`), or `position` itself — or null when there is none.
 */
export type QueueWindowJSON = {
  total: number;
  position: number;
  at: number | null;
  tracks: QueueTrackJSON[];
};
