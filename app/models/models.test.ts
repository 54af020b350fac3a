import fs from 'node:fs';
import path from 'node:path';

import { beforeEach, describe, expect, it } from 'vitest';

import { FULL_ACCESS } from '~/utils/access';

import { clearDatabase, setupTestDatabase } from '../../tests/helpers/test-db';

const { uploadsDir } = setupTestDatabase();

const users = await import('./user.server');
const tracks = await import('./track.server');
const trackWrites = await import('./track-writes.server');
const subscribers = await import('./subscriber.server');
const blog = await import('./blog-post.server');
const shows = await import('./show.server');
const theme = await import('./theme.server');
const newsletter = await import('./newsletter.server');
const { seedIfEmpty, SEED_CLAIM_STALE_MS } = await import('~/platform/seed.server');
const { default: mongoose } = await import('mongoose');

const trackInput = (
  title: string,
  extra: Partial<Parameters<typeof trackWrites.createTrack>[0]> = {},
) => ({
  title,
  duration: '3:45',
  coverImage: `/uploads/images/${title}.jpg`,
  audioFile: `/uploads/audio/${title}.mp3`,
  ...extra,
});

beforeEach(async () => {
  await clearDatabase();
});

describe('users', () => {
  it('hashes passwords with a salted scrypt and never exposes the hash', async () => {
    const user = await users.createUser({ username: 'Nova', password: 'secret-123' });
    expect(user).toEqual({ id: expect.any(Number), username: 'Nova', isAdmin: false });
    const stored = await users.User.findOne({ id: user.id }).lean();
    expect(stored?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored?.passwordHash).not.toContain('secret-123');
    const other = await users.createUser({ username: 'Other', password: 'secret-123' });
    const otherStored = await users.User.findOne({ id: other.id }).lean();
    expect(otherStored?.passwordHash).not.toBe(stored?.passwordHash);
  });

  it('keeps usernames unique case-insensitively', async () => {
    await users.createUser({ username: 'Nova', password: 'secret-123' });
    await expect(
      users.createUser({ username: 'nOVA', password: 'x-secret-1' }),
    ).rejects.toBeInstanceOf(users.UsernameTakenError);
  });

  it('verifies logins with the same answer for an unknown user and a wrong password', async () => {
    await users.createUser({ username: 'Nova', password: 'secret-123' });
    expect(await users.verifyLogin('nova', 'secret-123')).toMatchObject({ username: 'Nova' });
    expect(await users.verifyLogin('nova', 'wrong')).toBeNull();
    expect(await users.verifyLogin('nobody', 'secret-123')).toBeNull();
  });

  it('create-admin creates an admin, or promotes and re-passwords an existing user', async () => {
    const first = await users.upsertAdmin('boss', 'first-pass');
    expect(first).toMatchObject({ created: true, user: { username: 'boss', isAdmin: true } });
    await users.createUser({ username: 'fan', password: 'fan-pass-1' });
    const promoted = await users.upsertAdmin('FAN', 'new-pass-1');
    expect(promoted).toMatchObject({ created: false, user: { username: 'fan', isAdmin: true } });
    expect(await users.verifyLogin('fan', 'fan-pass-1')).toBeNull();
    expect(await users.verifyLogin('fan', 'new-pass-1')).toMatchObject({ isAdmin: true });
  });
});

describe('tracks', () => {
  it('gives serial ids and JSON without _id or __v, newest first', async () => {
    const a = await trackWrites.createTrack(trackInput('a'));
    const b = await trackWrites.createTrack(trackInput('b'));
    expect(b.id).toBe(a.id + 1);
    const list = await tracks.listTracks();
    expect(list.map((t) => t.title)).toEqual(['b', 'a']);
    expect(Object.keys(list[0]).sort()).toEqual(
      [
        'album',
        'artist',
        'audioFile',
        'audioStatus',
        'coverImage',
        'createdAt',
        'description',
        'duration',
        'durationSeconds',
        'featured',
        'id',
        'locked',
        'publicAt',
        'title',
        'type',
        'tracklist',
        'visibility',
      ].sort(),
    );
    expect(list[0].artist).toBe('Night Shore');
  });

  it('members-only and early access: locked for visitors until the public day, read at read time', async () => {
    const locked = await trackWrites.createTrack(trackInput('locked', { visibility: 'members' }));
    const early = await trackWrites.createTrack(
      trackInput('early', { visibility: 'members', publicAt: '2026-11-25' }),
    );
    const open = await trackWrites.createTrack(trackInput('open', { publicAt: '2026-11-25' }));
    // A public track keeps no date.
    expect(open.publicAt).toBeNull();
    const seen = async (member: boolean, today: string) =>
      Object.fromEntries(
        (await tracks.listTracksFor({ member, today })).map((t) => [t.title, t.locked]),
      );
    expect(await seen(false, '2026-11-24')).toEqual({ locked: true, early: true, open: false });
    expect(await seen(false, '2026-11-25')).toEqual({ locked: true, early: false, open: false });
    expect(await seen(true, '2026-11-24')).toEqual({ locked: false, early: false, open: false });
    expect(await tracks.audioAccess(locked.audioFile, '2026-11-25')).toBe('members');
    expect(await tracks.audioAccess(early.audioFile, '2026-11-24')).toBe('members');
    expect(await tracks.audioAccess(early.audioFile, '2026-11-25')).toBe('public');
    expect(await tracks.audioAccess(open.audioFile, '2026-11-24')).toBe('public');
    expect(await tracks.audioAccess('/uploads/audio/nobody.mp3')).toBe('public');
    // Back to public: the date goes with it.
    const after = await trackWrites.updateTrack(early.id, { visibility: 'public' });
    expect(after).toMatchObject({ visibility: 'public', publicAt: null });
  });

  it('searches title, artist and album case-insensitively, treating the query as text', async () => {
    await trackWrites.createTrack(trackInput('Neon Boardwalk', { album: 'Low Tide' }));
    await trackWrites.createTrack(trackInput('Other', { artist: 'Mara (feat.) Quinn' }));
    expect((await tracks.listTracks({ q: 'BOARD' })).map((t) => t.title)).toEqual([
      'Neon Boardwalk',
    ]);
    expect((await tracks.listTracks({ q: 'low tide' })).map((t) => t.title)).toEqual([
      'Neon Boardwalk',
    ]);
    expect((await tracks.listTracks({ q: '(feat.)' })).map((t) => t.title)).toEqual(['Other']);
    expect(await tracks.listTracks({ q: '.*' })).toEqual([]);
  });

  it('randomize makes exactly one track featured', async () => {
    await trackWrites.createTrack(trackInput('a', { featured: true }));
    await trackWrites.createTrack(trackInput('b', { featured: true }));
    await trackWrites.createTrack(trackInput('c'));
    const chosen = await trackWrites.randomizeFeaturedTrack(() => 0.99);
    expect(chosen?.title).toBeDefined();
    const featured = await tracks.listTracks({ featured: true });
    expect(featured).toHaveLength(1);
    expect(featured[0].id).toBe(chosen?.id);
    expect((await tracks.getFeaturedTrack())?.id).toBe(chosen?.id);
  });

  it('weekly rotation picks the featured track from the week number, changing on Monday in New York', async () => {
    for (const t of ['a', 'b', 'c']) await trackWrites.createTrack(trackInput(t));
    await theme.saveTheme({ weeklyRotation: true });
    // Sunday 23:30 in New York is Monday 04:30 UTC: still the old week on the site.
    const sunday = await tracks.getFeaturedTrack(new Date('2026-11-23T04:30:00Z'));
    const monday = await tracks.getFeaturedTrack(new Date('2026-11-23T05:30:00Z'));
    expect(sunday?.id).not.toBe(monday?.id);
    const sameWeek = await tracks.getFeaturedTrack(new Date('2026-11-27T12:00:00Z'));
    expect(sameWeek?.id).toBe(monday?.id);
  });

  it('deleting a track removes its uploaded files but never the fallback', async () => {
    const cover = path.join(uploadsDir, 'images', 'x.jpg');
    const audio = path.join(uploadsDir, 'audio', 'x.mp3');
    fs.writeFileSync(cover, 'c');
    fs.writeFileSync(audio, 'a');
    const t = await trackWrites.createTrack(
      trackInput('x', { coverImage: '/uploads/images/x.jpg', audioFile: '/uploads/audio/x.mp3' }),
    );
    await trackWrites.deleteTrack(t.id);
    expect(fs.existsSync(cover)).toBe(false);
    expect(fs.existsSync(audio)).toBe(false);
    expect(await tracks.getTrack(t.id)).toBeNull();
  });
});

describe('subscribers, blog and shows', () => {
  it('refuses a duplicate email whatever its case, and names a nameless subscriber', async () => {
    const s = await subscribers.createSubscriber({ email: 'Fan@Example.com' });
    expect(s.name).toBe('Fan');
    await expect(
      subscribers.createSubscriber({ name: 'X', email: 'fan@example.COM' }),
    ).rejects.toBeInstanceOf(subscribers.AlreadySubscribedError);
    expect(await subscribers.countSubscribers()).toBe(1);
  });

  it('keeps blog slugs unique and finds neighbours in list order', async () => {
    const base = { content: 'c', excerpt: 'e', imageUrl: '/x.jpg', category: 'NEWS' };
    await blog.createBlogPost({ ...base, title: 'One', slug: 'one' });
    await blog.createBlogPost({ ...base, title: 'Two', slug: 'two' });
    await blog.createBlogPost({ ...base, title: 'Three', slug: 'three' });
    await expect(
      blog.createBlogPost({ ...base, title: 'Again', slug: 'two' }),
    ).rejects.toBeInstanceOf(blog.SlugTakenError);
    const found = await blog.getBlogPostWithNeighbours(FULL_ACCESS, 'two');
    expect(found?.previous?.slug).toBe('three');
    expect(found?.next?.slug).toBe('one');
  });

  it('splits shows into upcoming (soonest first) and past (latest first)', async () => {
    const base = { title: 't', venue: 'v', location: 'Asbury Park, NJ', time: '8:00 PM' };
    await shows.createShow({ ...base, date: '2026-11-20' });
    await shows.createShow({ ...base, date: '2026-11-22', time: '9:00 PM' });
    await shows.createShow({ ...base, date: '2026-11-22', time: '7:30 PM' });
    await shows.createShow({ ...base, date: '2026-10-01' });
    const { upcoming, past } = await shows.listShowsSplit('2026-11-22');
    expect(upcoming.map((s) => `${s.date} ${s.time}`)).toEqual([
      '2026-11-22 7:30 PM',
      '2026-11-22 9:00 PM',
    ]);
    expect(past.map((s) => s.date)).toEqual(['2026-11-20', '2026-10-01']);
  });

  it('queues a newsletter for every active subscriber, and refuses with none', async () => {
    const issue = { subject: 'Hello', content: 'Long enough content', baseUrl: 'http://x.test' };
    await expect(
      newsletter.createNewsletterIssue({ ...issue, delivery: 'outbox' }),
    ).rejects.toBeInstanceOf(newsletter.NoSubscribersError);
    await subscribers.createSubscriber({ email: 'a@example.com' });
    await subscribers.createSubscriber({ email: 'b@example.com' });
    await subscribers.createSubscriber({ email: 'p@example.com', status: 'pending' });
    const left = await subscribers.createSubscriber({ email: 'u@example.com' });
    await subscribers.unsubscribeSubscriber(left.id);
    const sent = await newsletter.createNewsletterIssue({ ...issue, delivery: 'outbox' });
    expect(sent).toMatchObject({ sentCount: 2, delivery: 'outbox', slug: `${sent.id}-hello` });
    expect(await newsletter.newsletterProgress(sent)).toMatchObject({
      state: 'queued',
      total: 2,
      queued: 2,
      sent: 0,
      failed: 0,
    });
  });

  it('createSubscriber refuses an address already on the list in any status', async () => {
    const first = await subscribers.createSubscriber({ email: 'Again@Example.com' });
    await subscribers.unsubscribeSubscriber(first.id);
    await expect(
      subscribers.createSubscriber({ email: 'again@example.com' }),
    ).rejects.toBeInstanceOf(subscribers.AlreadySubscribedError);
    expect(await subscribers.getSubscriber(first.id)).toMatchObject({ status: 'unsubscribed' });
  });

  it('a sign-up brings back an address that left only as pending, with a confirmation', async () => {
    const first = await subscribers.createSubscriber({ email: 'Back@Example.com' });
    await subscribers.unsubscribeSubscriber(first.id);
    const back = await subscribers.signUpSubscriber({
      email: 'back@example.com',
      name: 'Someone Else',
      doubleOptIn: false,
    });
    expect(back).toMatchObject({
      mail: 'confirm',
      subscriber: { id: first.id, status: 'pending', name: 'Back' },
    });
  });
});

describe('theme', () => {
  it('has the default theme until saved', async () => {
    expect(await theme.getTheme()).toMatchObject({
      primary: 'hsl(347, 100%, 56%)',
      variant: 'vibrant',
      appearance: 'dark',
      radius: 0.5,
      headerFont: 'Orbitron',
      bodyFont: 'Inter',
    });
    await theme.saveTheme({ headerFont: 'Lato' });
    expect((await theme.getTheme()).headerFont).toBe('Lato');
  });
});

describe('seed', () => {
  it('two instances starting at once on an empty database seed one copy', async () => {
    const results = await Promise.all([seedIfEmpty(), seedIfEmpty(), seedIfEmpty()]);
    expect(results.filter((r) => r.seeded)).toHaveLength(1);
    const titles = (await tracks.listTracks()).map((t) => t.title);
    expect(titles.length).toBeGreaterThanOrEqual(6);
    expect(new Set(titles).size).toBe(titles.length);
    expect((await tracks.listTracks({ featured: true })).length).toBe(1);
  });

  it('a claim left by an instance that died while seeding is taken over once it is stale', async () => {
    const meta = mongoose.connection.collection<{ _id: string; state?: string; at?: Date }>('meta');
    await meta.insertOne({ _id: 'seed', state: 'seeding', at: new Date() });
    expect((await seedIfEmpty()).seeded).toBe(false); // another instance is at it
    await meta.updateOne(
      { _id: 'seed' },
      { $set: { at: new Date(Date.now() - SEED_CLAIM_STALE_MS - 1000) } },
    );
    expect((await seedIfEmpty()).seeded).toBe(true);
    expect(await meta.findOne({ _id: 'seed' })).toMatchObject({ state: 'done' });
  });

  it('seeds an empty database once, even after an admin was created, and never twice', async () => {
    await users.upsertAdmin('boss', 'first-pass');
    const first = await seedIfEmpty();
    expect(first.seeded).toBe(true);
    const counts = {
      tracks: await tracks.countTracks(),
      posts: await blog.countBlogPosts(),
      shows: await shows.countShows(),
    };
    expect(counts.tracks).toBeGreaterThanOrEqual(6);
    expect(counts.posts).toBeGreaterThanOrEqual(4);
    expect((await tracks.listTracks({ featured: true })).length).toBe(1);
    const { upcoming, past } = await shows.listShowsSplit();
    expect(upcoming.length).toBeGreaterThan(0);
    expect(past.length).toBeGreaterThan(0);
    // Every seeded file was copied into UPLOADS_DIR, and durations come from the audio.
    for (const t of await tracks.listTracks()) {
      expect(fs.existsSync(path.join(uploadsDir, t.audioFile.replace('/uploads/', '')))).toBe(true);
      // The demo mix is the seven demo tracks back to back (4:28), with its tracklist.
      if (t.type === 'Mix') {
        expect(t.duration).toBe('4:28');
        expect(t.durationSeconds).toBe(268);
        expect(t.tracklist).toHaveLength(7);
        expect(t.tracklist[6]).toMatchObject({
          start: 234,
          title: expect.stringMatching(/Atlantic/),
        });
      } else {
        expect(t.duration).toMatch(/^0:[3-5]\d$/);
      }
      expect(['Single', 'EP', 'Album', 'Mix', 'Live set', 'Radio show']).toContain(t.type);
    }
    expect((await seedIfEmpty()).seeded).toBe(false);
    // An admin deleting every track must not bring the demo back at the next start.
    for (const t of await tracks.listTracks()) await trackWrites.deleteTrack(t.id);
    expect((await seedIfEmpty()).seeded).toBe(false);
    expect(await tracks.countTracks()).toBe(0);
  });
});
