import mongoose from 'mongoose';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as TrackPodcastModule from '~/models/track-podcast.server';
import type * as TrackWritesModule from '~/models/track-writes.server';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * Podcast GUIDs stored on the track (decision 037): a new track's has no host; the start-up
 * migration keeps the GUID a track may already have been published with (a real SITE_URL) and
 * gives host-free ones where that GUID named this machine; in batches from a cursor, and safe
 * when several instances run it at once. On the embedded store.
 */
setupTestDatabase();

let trackWrites: typeof TrackWritesModule;
let trackPodcast: typeof TrackPodcastModule;

beforeAll(async () => {
  trackPodcast = await import('~/models/track-podcast.server');
  trackWrites = await import('~/models/track-writes.server');
});
beforeEach(async () => {
  await clearDatabase();
});

const UUID_GUID = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const collection = () => mongoose.connection.db!.collection('tracks');

/** Tracks as stored before GUIDs were: no `podcastGuid` field at all. */
async function insertLegacyTracks(ids: number[]): Promise<void> {
  const updatedAt = new Date('2026-01-01T00:00:00Z');
  await collection().insertMany(
    ids.map((id) => ({
      id,
      title: `Legacy ${id}`,
      artist: 'Night Shore',
      type: 'Mix',
      duration: '3:00',
      coverImage: `/uploads/images/legacy-${id}.jpg`,
      audioFile: `/uploads/audio/legacy-${id}.mp3`,
      audioStatus: 'ready',
      featured: false,
      visibility: 'public',
      createdAt: updatedAt,
      updatedAt,
    })),
  );
}

async function storedGuids(): Promise<Map<number, string | undefined>> {
  const docs = await collection()
    .find({}, { projection: { id: 1, podcastGuid: 1 } })
    .toArray();
  return new Map(docs.map((d) => [d.id as number, d.podcastGuid as string | undefined]));
}

/** The driver's commands of `name` on the tracks sent while `fn` runs. */
async function commandsDuring(name: string, fn: () => Promise<unknown>): Promise<number> {
  const client = mongoose.connection.getClient();
  let count = 0;
  const listener = (event: { commandName: string; command: Record<string, unknown> }) => {
    const on = name === 'getMore' ? event.command.collection : event.command[name];
    if (event.commandName === name && on === 'tracks') count += 1;
  };
  client.on('commandStarted', listener);
  try {
    await fn();
  } finally {
    client.off('commandStarted', listener);
  }
  return count;
}

describe('podcast GUIDs', () => {
  it('a new track gets a host-free GUID when it is created, kept by edits and by the migration', async () => {
    const track = await trackWrites.createTrack({
      title: 'Fresh set',
      type: 'Mix',
      duration: '3:00',
      coverImage: '/uploads/images/fresh.jpg',
      audioFile: '/uploads/audio/fresh.mp3',
    });
    const guid = (await storedGuids()).get(track.id);
    expect(guid).toMatch(UUID_GUID);
    await trackWrites.updateTrack(track.id, { title: 'Fresh set (edit)', coverImage: '/x.jpg' });
    expect(await trackPodcast.migrateTrackGuids({ origin: 'https://nightshore.example' })).toBe(0);
    expect((await storedGuids()).get(track.id)).toBe(guid);
    const [mix] = await trackPodcast.listMixes();
    expect(mix).toMatchObject({ id: track.id, podcastGuid: guid });
  });

  it('with a real SITE_URL, existing tracks keep the GUID they may have been published with', async () => {
    await insertLegacyTracks([1, 2, 3]);
    expect(await trackPodcast.migrateTrackGuids({ origin: 'https://nightshore.example' })).toBe(3);
    expect([...(await storedGuids()).entries()].sort()).toEqual([
      [1, 'nightshore.example:track:1'],
      [2, 'nightshore.example:track:2'],
      [3, 'nightshore.example:track:3'],
    ]);
    // Once: a later start with another SITE_URL (the domain moved) changes nothing.
    expect(await trackPodcast.migrateTrackGuids({ origin: 'https://new-domain.example' })).toBe(0);
    expect((await storedGuids()).get(1)).toBe('nightshore.example:track:1');
    // A port is part of the host the GUID was made of.
    await insertLegacyTracks([4]);
    await trackPodcast.migrateTrackGuids({ origin: 'http://music.nightshore.example:8080' });
    expect((await storedGuids()).get(4)).toBe('music.nightshore.example:8080:track:4');
  });

  it.each([
    'http://localhost:4201',
    'http://127.0.0.1:3000',
    'http://[::1]:3000',
    'http://night-shore.localhost',
  ])('where the GUID would name this machine (%s), tracks get host-free ones', async (origin) => {
    await insertLegacyTracks([1, 2]);
    expect(await trackPodcast.migrateTrackGuids({ origin })).toBe(2);
    const guids = await storedGuids();
    expect(guids.get(1)).toMatch(UUID_GUID);
    expect(guids.get(2)).toMatch(UUID_GUID);
    expect(guids.get(1)).not.toBe(guids.get(2));
    expect(await trackPodcast.migrateTrackGuids({ origin })).toBe(0);
    expect(await storedGuids()).toEqual(guids);
  });

  it('leaves updatedAt alone: a GUID is not an edit', async () => {
    await insertLegacyTracks([1]);
    await trackPodcast.migrateTrackGuids({ origin: 'http://localhost:3000' });
    const doc = await collection().findOne({ id: 1 });
    expect(doc?.updatedAt).toEqual(new Date('2026-01-01T00:00:00Z'));
  });

  it('reads through a cursor and writes in batches, every track once', async () => {
    const ids = Array.from({ length: 23 }, (_, i) => i + 1);
    await insertLegacyTracks(ids);
    let changed = 0;
    const getMores = await commandsDuring('getMore', async () => {
      const updates = await commandsDuring('update', async () => {
        changed = await trackPodcast.migrateTrackGuids({
          origin: 'https://nightshore.example',
          batchSize: 5,
        });
      });
      // 23 tracks in batches of 5: five bulk writes.
      expect(updates).toBe(5);
    });
    expect(getMores).toBeGreaterThanOrEqual(4);
    expect(changed).toBe(23);
    const guids = await storedGuids();
    for (const id of ids) expect(guids.get(id)).toBe(`nightshore.example:track:${id}`);
  });

  it('several instances starting together: each track gets one GUID, which stays', async () => {
    await insertLegacyTracks(Array.from({ length: 12 }, (_, i) => i + 1));
    const counts = await Promise.all(
      [1, 2, 3].map(() =>
        trackPodcast.migrateTrackGuids({ origin: 'http://localhost:3000', batchSize: 4 }),
      ),
    );
    // Every track was given its GUID by exactly one of them.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(12);
    const guids = await storedGuids();
    expect(new Set(guids.values()).size).toBe(12);
    for (const guid of guids.values()) expect(guid).toMatch(UUID_GUID);
    await Promise.all(
      [1, 2].map(() => trackPodcast.migrateTrackGuids({ origin: 'https://x.example' })),
    );
    expect(await storedGuids()).toEqual(guids);
  });

  it('a mix written without one later (a restore) gets its GUID when the feed reads it', async () => {
    await insertLegacyTracks([7]);
    const [mix] = await trackPodcast.listMixes();
    expect(mix?.podcastGuid).toMatch(UUID_GUID);
    expect((await storedGuids()).get(7)).toBe(mix?.podcastGuid);
  });
});
