import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as QueueModule from '~/models/track-queue.server';
import type * as TrackWritesModule from '~/models/track-writes.server';
import type * as QueueRoute from '~/routes/api+/tracks.queue';
import type { QueueWindowJSON } from '~/types/queue';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * The player's queue by position (GET /api/tracks/queue, issue 37) on the embedded store:
 * windows in /music's order, the start position, a track's position, locks, and bad input.
 */
setupTestDatabase();

let queue: typeof QueueModule;
let trackWrites: typeof TrackWritesModule;
let route: typeof QueueRoute;

beforeAll(async () => {
  queue = await import('~/models/track-queue.server');
  trackWrites = await import('~/models/track-writes.server');
  route = await import('~/routes/api+/tracks.queue');
});
beforeEach(async () => {
  await clearDatabase();
});

const VISITOR = { member: false, today: '2026-01-10' };
const MEMBER = { member: true, today: '2026-01-10' };

/** `n` tracks, made oldest first (ids 1..n): newest first, position p holds id n - p. */
async function make(
  n: number,
  shape: (i: number) => Partial<TrackWritesModule.TrackWrite> = () => ({}),
) {
  const made = [];
  for (let i = 1; i <= n; i++) {
    made.push(
      await trackWrites.createTrack({
        title: `T${i}`,
        duration: '3:00',
        coverImage: `/uploads/images/t${i}.jpg`,
        audioFile: `/uploads/audio/t${i}.mp3`,
        ...shape(i),
      }),
    );
  }
  return made;
}

async function get(search: string): Promise<{ status: number; body: unknown }> {
  const request = new Request(`http://localhost/api/tracks/queue${search}`);
  const response = await route.loader({ request, params: {}, context: {} });
  return { status: response.status, body: await response.json() };
}

describe('GET /api/tracks/queue', () => {
  it('answers windows by position, newest first, with the total', async () => {
    await make(30);
    const { status, body } = await get('?position=24&count=10');
    expect(status).toBe(200);
    const w = body as QueueWindowJSON;
    expect(w.total).toBe(30);
    expect(w.position).toBe(24);
    expect(w.tracks.map((t) => t.title)).toEqual(['T6', 'T5', 'T4', 'T3', 'T2', 'T1']);
    expect(Object.keys(w.tracks[0]!).sort()).toEqual(
      [
        'album',
        'artist',
        'audioFile',
        'coverImage',
        'duration',
        'id',
        'locked',
        'title',
        'type',
      ].sort(),
    );
    expect(((await get('?position=40')).body as QueueWindowJSON).tracks).toEqual([]);
  });

  it('locks members-only tracks for a visitor and gives processing ones no audio', async () => {
    await make(4, (i) =>
      i === 4 ? { visibility: 'members' } : i === 3 ? { audioStatus: 'processing' } : {},
    );
    const visitor = await queue.findQueueWindowFor(VISITOR, 0, 4);
    expect(visitor.tracks[0]).toMatchObject({ title: 'T4', locked: true });
    expect(visitor.tracks[0]).not.toHaveProperty('audioFile');
    expect(visitor.tracks[1]).toMatchObject({ title: 'T3', locked: false, audioFile: null });
    const member = await queue.findQueueWindowFor(MEMBER, 0, 1);
    expect(member.tracks[0]).toMatchObject({ locked: false, audioFile: '/uploads/audio/t4.mp3' });
  });

  it('finds the start: the first playable track under /uploads/audio/', async () => {
    await make(6, (i) =>
      i === 6
        ? { visibility: 'members' }
        : i === 5
          ? { audioFile: 'https://elsewhere.test/t5.mp3' }
          : i === 4
            ? { audioStatus: 'processing' }
            : {},
    );
    expect(await queue.findQueueStartFor(VISITOR)).toBe(3);
    expect(await queue.findQueueStartFor(MEMBER)).toBe(0);
    const w = (await get('?position=start&count=2')).body as QueueWindowJSON;
    expect(w).toMatchObject({ at: 3, position: 3 });
    expect(w.tracks.map((t) => t.title)).toEqual(['T3', 'T2']);
  });

  it('finds a track: its position and the window around it', async () => {
    const made = await make(30);
    expect(await queue.findQueuePositionOf(made[9]!.id)).toBe(20);
    const w = (await get(`?track=${made[9]!.id}&count=8`)).body as QueueWindowJSON;
    expect(w).toMatchObject({ at: 20, position: 18 });
    expect(w.tracks[2]?.title).toBe('T10');
    expect(((await get('?track=999')).body as QueueWindowJSON).at).toBeNull();
  });

  it('refuses bad input with 400 { error }', async () => {
    for (const search of [
      '',
      '?position=-1',
      '?position=x',
      '?position=1&track=2',
      '?track=0',
      '?position=0&count=0',
      '?position=0&count=abc',
    ]) {
      const { status, body } = await get(search);
      expect(status, search).toBe(400);
      expect(body).toHaveProperty('error');
    }
    await make(120);
    const clamped = (await get('?position=0&count=500')).body as QueueWindowJSON;
    expect(clamped.tracks).toHaveLength(100);
  });
});
