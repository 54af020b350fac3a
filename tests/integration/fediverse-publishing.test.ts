import type { Activity } from '@fedify/fedify';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type * as ObjectsModule from '~/fediverse/objects.server';
import type * as PublicationModule from '~/fediverse/publication.server';
import type * as SweepModule from '~/fediverse/sweep.server';
import type * as BlogModule from '~/models/blog-post.server';
import type * as LedgerModule from '~/models/fediverse-publication.server';
import type * as TrackAudioModule from '~/models/track-audio.server';
import type * as TrackModule from '~/models/track-writes.server';
import type * as BlogSaveModule from '~/services/blog-save.server';
import type * as ShowsModule from '~/services/shows.server';
import type * as TrackSaveModule from '~/services/track-save.server';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * The publication ledger (decision 054) on the embedded store, with the delivery queue replaced
 * by a recorder (fedicore's `sendToFollowers`; the real queue is in the end-to-end test): each
 * item goes out exactly once, members-only items only once public (at once when made public, on
 * their early-access day by the sweep), an edit that changes the rendering is an Update, a
 * deletion a Delete after which the id answers 410, and two instances publishing the same
 * change send one activity.
 */
setupTestDatabase();

const sent = vi.hoisted(() => ({ activities: [] as Activity[], failNext: 0 }));
vi.mock('~/fediverse/delivery.server', () => ({
  sendToFollowers: async (activity: Activity) => {
    if (sent.failNext > 0) {
      sent.failNext -= 1;
      throw new Error('the delivery queue is away');
    }
    sent.activities.push(activity);
    return true;
  },
}));

let publication: typeof PublicationModule;
let sweep: typeof SweepModule;
let objects: typeof ObjectsModule;
let ledger: typeof LedgerModule;
let tracks: typeof TrackModule;
let trackAudio: typeof TrackAudioModule;
let posts: typeof BlogModule;
let trackSave: typeof TrackSaveModule;
let blogSave: typeof BlogSaveModule;
let shows: typeof ShowsModule;

beforeAll(async () => {
  publication = await import('~/fediverse/publication.server');
  sweep = await import('~/fediverse/sweep.server');
  objects = await import('~/fediverse/objects.server');
  ledger = await import('~/models/fediverse-publication.server');
  tracks = await import('~/models/track-writes.server');
  trackAudio = await import('~/models/track-audio.server');
  posts = await import('~/models/blog-post.server');
  trackSave = await import('~/services/track-save.server');
  blogSave = await import('~/services/blog-save.server');
  shows = await import('~/services/shows.server');
});

beforeEach(async () => {
  await clearDatabase();
  sent.activities.length = 0;
  sent.failNext = 0;
});

type Json = Record<string, unknown>;

/** What went out: verb and object id (path), in order. */
async function outgoing(): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  for (const activity of sent.activities) {
    const json = (await activity.toJsonLd()) as Json;
    const object = json.object as Json;
    rows.push([
      String(json.type),
      new URL(String(object.id)).pathname + new URL(String(object.id)).hash,
    ]);
  }
  return rows;
}

const newMix = (fields: Partial<Parameters<typeof TrackModule.createTrack>[0]> = {}) =>
  tracks.createTrack({
    title: `Mix ${Math.random().toString(36).slice(2)}`,
    type: 'Mix',
    duration: '1:00:00',
    coverImage: '/uploads/images/cover.jpg',
    audioFile: `/uploads/audio/${Math.random().toString(36).slice(2)}.mp3`,
    ...fields,
  });

const as2 = (path: string) =>
  new Request(`http://localhost${path}`, {
    headers: { Accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' },
  });

describe('the ledger: exactly once', () => {
  it('a public mix is created once, however often it is published', async () => {
    const mix = await newMix();
    await publication.publishItem('track', mix.id);
    await publication.publishItem('track', mix.id);
    await sweep.sweepPublications(new Date(Date.now() + 10 * 60_000));
    expect(await outgoing()).toEqual([['Create', `/music/${mix.id}`]]);
    const entry = await ledger.getPublication('track', mix.id);
    expect(entry).toMatchObject({
      state: 'published',
      unsent: false,
      objectId: `/music/${mix.id}`,
    });
  });

  it('two instances publishing the same new mix at once send one Create', async () => {
    const mix = await newMix();
    await Promise.all([
      publication.publishItem('track', mix.id),
      publication.publishItem('track', mix.id),
      publication.publishItem('track', mix.id),
    ]);
    expect(await outgoing()).toEqual([['Create', `/music/${mix.id}`]]);
  });

  it('an edit that changes what is shown is an Update; one that does not sends nothing', async () => {
    const mix = await newMix();
    await publication.publishItem('track', mix.id);
    await tracks.setTrackFeatured(mix.id, true);
    await publication.publishItem('track', mix.id);
    await tracks.updateTrack(mix.id, { title: 'Renamed mix' });
    await Promise.all([
      publication.publishItem('track', mix.id),
      publication.publishItem('track', mix.id),
    ]);
    expect(await outgoing()).toEqual([
      ['Create', `/music/${mix.id}`],
      ['Update', `/music/${mix.id}`],
    ]);
  });

  it('a deletion is a Delete, and the id then answers 410 with a Tombstone to ActivityPub clients', async () => {
    const mix = await newMix();
    await publication.publishItem('track', mix.id);
    expect(await trackSave.removeTrack(mix.id)).not.toBeNull();
    // The services do not wait for the fediverse: the Delete follows the answer.
    await vi.waitFor(async () =>
      expect(await outgoing()).toEqual([
        ['Create', `/music/${mix.id}`],
        ['Delete', `/music/${mix.id}`],
      ]),
    );
    const gone = await objects.answerTombstone(as2(`/music/${mix.id}`));
    expect(gone?.status).toBe(410);
    expect(gone?.headers.get('Content-Type')).toBe('application/activity+json');
    expect(gone?.headers.get('Vary')).toBe('Accept');
    expect(await gone?.json()).toMatchObject({ type: 'Tombstone' });
    // A browser keeps the HTML 404 (Remix answers).
    const html = new Request(`http://localhost/music/${mix.id}`, {
      headers: { Accept: 'text/html' },
    });
    expect(await objects.answerTombstone(html)).toBeNull();
    // An id never published is no tombstone: a plain 404 (not the page's HTML).
    expect((await objects.answerTombstone(as2('/music/999999')))?.status).toBe(404);
  });
});

describe('members-only items', () => {
  it('are not federated until an admin makes them public, then at once', async () => {
    const mix = await newMix({ visibility: 'members' });
    await publication.publishItem('track', mix.id);
    expect(await objects.objectOfItem('track', mix.id)).toBeNull();
    await sweep.sweepPublications(new Date(Date.now() + 24 * 3_600_000));
    expect(await outgoing()).toEqual([]);
    await tracks.updateTrack(mix.id, { visibility: 'public' });
    await publication.publishItem('track', mix.id);
    expect(await outgoing()).toEqual([['Create', `/music/${mix.id}`]]);
    expect(await objects.objectOfItem('track', mix.id)).not.toBeNull();
  });

  it('early access: published by the sweep on the day, within minutes after midnight (site time)', async () => {
    // Members-only until 2030-03-10; midnight in New York that day is 05:00 UTC (EST).
    const mix = await newMix({ visibility: 'members', publicAt: '2030-03-10' });
    const eve = new Date('2030-03-10T04:55:00Z');
    await publication.publishItem('track', mix.id, eve);
    const entry = await ledger.getPublication('track', mix.id);
    expect(entry).toMatchObject({ state: 'waiting', dueAt: new Date('2030-03-10T05:00:00Z') });
    await sweep.sweepPublications(eve);
    expect(await outgoing()).toEqual([]);
    // The sweep runs every SWEEP_MS; two instances sweeping at once send one Create.
    const justAfter = new Date(new Date('2030-03-10T05:00:00Z').getTime() + sweep.SWEEP_MS);
    await Promise.all([sweep.sweepPublications(justAfter), sweep.sweepPublications(justAfter)]);
    expect(await outgoing()).toEqual([['Create', `/music/${mix.id}`]]);
    expect(sweep.SWEEP_MS).toBeLessThanOrEqual(10 * 60_000);
  });

  it('a published item turned members-only is deleted, and published under a new id when public again', async () => {
    const mix = await newMix();
    await publication.publishItem('track', mix.id);
    await tracks.updateTrack(mix.id, { visibility: 'members', publicAt: null });
    await publication.publishItem('track', mix.id);
    expect((await objects.answerTombstone(as2(`/music/${mix.id}`)))?.status).toBe(410);
    await tracks.updateTrack(mix.id, { visibility: 'public' });
    await publication.publishItem('track', mix.id);
    const rows = await outgoing();
    expect(rows.map(([verb]) => verb)).toEqual(['Create', 'Delete', 'Create']);
    // Mastodon keeps a deleted id as a tombstone: the second Create has an id of its own.
    expect(rows[2]![1]).not.toBe(`/music/${mix.id}`);
    expect(rows[2]![1].startsWith(`/music/${mix.id}#`)).toBe(true);
  });
});

describe('posts, shows, streams and failed sends', () => {
  it('a post is an Article (created, then deleted)', async () => {
    const post = await posts.createBlogPost({
      title: 'Tour dates',
      slug: `tour-${Math.random().toString(36).slice(2)}`,
      excerpt: 'Where we play',
      content: 'Body',
      imageUrl: '/uploads/images/tour.jpg',
      category: 'NEWS',
      visibility: 'public',
      publicAt: null,
    });
    await publication.publishItem('post', post.id);
    const [create] = sent.activities;
    expect(((await create!.toJsonLd()) as Json).object).toMatchObject({ type: 'Article' });
    await blogSave.removeBlogPost(post.id);
    await vi.waitFor(async () =>
      expect((await outgoing()).map(([verb]) => verb)).toEqual(['Create', 'Delete']),
    );
  });

  it('an upcoming show is an Event (created, updated, deleted); a past one is not announced', async () => {
    const show = await shows.addShow({
      title: 'Pier party',
      venue: 'The Pier',
      location: 'Asbury Park, NJ',
      date: '2031-06-01',
      time: '9:00 PM',
      ticketUrl: 'https://tickets.example/pier',
      description: null,
    });
    // The services do not wait for the fediverse: each change is sent after its answer.
    const sentVerbs = async (n: number) =>
      vi.waitFor(async () => expect((await outgoing()).length).toBe(n));
    await sentVerbs(1);
    await shows.editShow(show.id, { ...show, title: 'Pier party (moved)' });
    await sentVerbs(2);
    await shows.removeShow(show.id);
    await sentVerbs(3);
    expect(await outgoing()).toEqual([
      ['Create', `/shows/${show.id}`],
      ['Update', `/shows/${show.id}`],
      ['Delete', `/shows/${show.id}`],
    ]);
    const [create] = sent.activities;
    expect(((await create!.toJsonLd()) as Json).object).toMatchObject({ type: 'Event' });
    sent.activities.length = 0;
    await shows.addShow({ ...show, date: '2001-01-01' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await outgoing()).toEqual([]);
  });

  it('a public track whose stream is being made goes out once the stream is ready (the sweep)', async () => {
    const mix = await newMix({ audioStatus: 'processing' });
    await publication.publishItem('track', mix.id);
    expect(await outgoing()).toEqual([]);
    await trackAudio.completeTrackAudio(mix.id, mix.audioFile, null);
    await sweep.sweepPublications(new Date(Date.now() + 2 * publication.STREAM_WAIT_MS));
    expect(await outgoing()).toEqual([['Create', `/music/${mix.id}`]]);
  });

  it('a send the queue did not take is sent again by the sweep, once', async () => {
    const mix = await newMix();
    sent.failNext = 1;
    await publication.publishItem('track', mix.id);
    expect(await outgoing()).toEqual([]);
    expect(await ledger.getPublication('track', mix.id)).toMatchObject({ unsent: true });
    const later = new Date(Date.now() + publication.RESEND_MS + 1000);
    await Promise.all([sweep.sweepPublications(later), sweep.sweepPublications(later)]);
    expect(await outgoing()).toEqual([['Create', `/music/${mix.id}`]]);
    expect(await ledger.getPublication('track', mix.id)).toMatchObject({ unsent: false });
  });
});
