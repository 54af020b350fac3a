import { type EmbeddedMongo, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as TrackModule from '~/models/track.server';
import type * as TrackWritesModule from '~/models/track-writes.server';
import type * as DbModule from '~/platform/db.server';

import { matchesTrackQuery, normalizeTrackQuery } from './track-search';

const track = (title: string, artist: string, album: string | null) => ({ title, artist, album });

describe('matchesTrackQuery', () => {
  const t = track('Neon Boardwalk', 'Night Shore', 'Low Tide (Deluxe)');

  it('matches a case-insensitive substring of the title, artist or album', () => {
    expect(matchesTrackQuery(t, 'neon')).toBe(true);
    expect(matchesTrackQuery(t, 'BOARDWALK')).toBe(true);
    expect(matchesTrackQuery(t, 'ght sho')).toBe(true);
    expect(matchesTrackQuery(t, 'tide')).toBe(true);
    expect(matchesTrackQuery(t, 'ocean')).toBe(false);
  });

  it('treats an empty or blank query as "everything" and trims the query', () => {
    expect(matchesTrackQuery(t, '')).toBe(true);
    expect(matchesTrackQuery(t, '   ')).toBe(true);
    expect(matchesTrackQuery(t, null)).toBe(true);
    expect(matchesTrackQuery(t, '  neon  ')).toBe(true);
    expect(normalizeTrackQuery('  a b ')).toBe('a b');
  });

  it('takes regular-expression characters literally', () => {
    expect(matchesTrackQuery(t, '(deluxe)')).toBe(true);
    expect(matchesTrackQuery(t, '.*')).toBe(false);
    expect(matchesTrackQuery(track('What?', 'A', null), '?')).toBe(true);
  });

  it('ignores a missing album', () => {
    expect(matchesTrackQuery(track('One', 'Two', null), 'null')).toBe(false);
  });
});

describe('the model search agrees with matchesTrackQuery', () => {
  let store: EmbeddedMongo;
  let trackModel: typeof TrackModule;
  let trackWrites: typeof TrackWritesModule;
  let db: typeof DbModule;
  const fixtures = [
    track('Neon Boardwalk', 'Night Shore', 'Low Tide (Deluxe)'),
    track('Ocean Avenue 3AM', 'Night Shore', null),
    track('Saltwater Signals', 'Guest: Marisol', 'Signals'),
    track('What? Remix', 'DJ K.O.', null),
    track('Palace Lights', 'night SHORE feat. Vee', 'Palace'),
  ];

  beforeAll(async () => {
    process.env.SEED = 'false';
    store = await startEmbeddedMongo();
    db = await import('~/platform/db.server');
    await db.connectDb({ uri: store.uri, dbName: 'track-search-test' });
    trackModel = await import('~/models/track.server');
    trackWrites = await import('~/models/track-writes.server');
    for (const f of fixtures) {
      await trackWrites.createTrack({
        ...f,
        duration: '3:00',
        coverImage: '/placeholder-album.jpg',
        audioFile: '/uploads/audio/x.mp3',
      });
    }
  });

  afterAll(async () => {
    await db.disconnectDb();
    await store.stop();
  });

  it.each(['neon', 'SHORE', 'signals', '?', 'k.o.', '(deluxe)', 'feat', 'zzz', ' 3am ', '.'])(
    'query %j',
    async (q) => {
      const fromModel = (await trackModel.listTracks({ q })).map((t) => t.title).sort();
      const fromRule = fixtures
        .filter((f) => matchesTrackQuery(f, q))
        .map((f) => f.title)
        .sort();
      expect(fromModel).toEqual(fromRule);
    },
  );
});
