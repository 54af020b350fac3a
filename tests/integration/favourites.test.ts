import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as FavouriteModule from '~/models/favourite.server';
import type * as GuestListModule from '~/models/guest-list.server';
import type * as SessionModule from '~/models/session.server';
import type * as ShowModule from '~/models/show.server';
import type * as TrackWritesModule from '~/models/track-writes.server';
import type * as UserModule from '~/models/user.server';
import type * as AccountsModule from '~/services/accounts.server';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * Favourites in the account and account deletion (decision 019), on the embedded store.
 */
setupTestDatabase();

let favourites: typeof FavouriteModule;
let trackWrites: typeof TrackWritesModule;
let users: typeof UserModule;
let shows: typeof ShowModule;
let guests: typeof GuestListModule;
let accounts: typeof AccountsModule;
let sessions: typeof SessionModule;

beforeAll(async () => {
  favourites = await import('~/models/favourite.server');
  trackWrites = await import('~/models/track-writes.server');
  users = await import('~/models/user.server');
  shows = await import('~/models/show.server');
  guests = await import('~/models/guest-list.server');
  accounts = await import('~/services/accounts.server');
  sessions = await import('~/models/session.server');
});
beforeEach(async () => {
  await clearDatabase();
});

const track = (title: string) =>
  trackWrites.createTrack({
    title,
    duration: '3:00',
    coverImage: `/uploads/images/${title}.jpg`,
    audioFile: `/uploads/audio/${title}.mp3`,
  });

describe('favourites', () => {
  it('adding is idempotent, even at once; unknown tracks are refused; removing twice is fine', async () => {
    const a = await track('a');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => favourites.addFavourite(1, a.id)),
    );
    expect(results.every(Boolean)).toBe(true);
    expect(await favourites.listFavouriteTrackIds(1)).toEqual([a.id]);
    expect(await favourites.addFavourite(1, 999)).toBe(false);
    await favourites.removeFavourite(1, a.id);
    await favourites.removeFavourite(1, a.id);
    expect(await favourites.listFavouriteTrackIds(1)).toEqual([]);
  });

  it("merges a browser's list into the account: the union, unknown ids dropped, per user", async () => {
    const [a, b, c] = [await track('a'), await track('b'), await track('c')];
    await favourites.addFavourite(1, a.id);
    await favourites.addFavourite(2, c.id);
    const merged = await favourites.mergeFavourites(1, [b.id, a.id, b.id, 12345]);
    expect([...merged].sort()).toEqual([a.id, b.id].sort());
    expect(await favourites.listFavouriteTrackIds(2)).toEqual([c.id]);
  });

  it("skips a deleted track's favourites", async () => {
    const [a, b] = [await track('a'), await track('b')];
    await favourites.mergeFavourites(1, [a.id, b.id]);
    await trackWrites.deleteTrack(a.id);
    expect(await favourites.listFavouriteTrackIds(1)).toEqual([b.id]);
  });
});

describe('deleting an account', () => {
  it('removes the user, their sessions, favourites and guest-list spots (given back)', async () => {
    const user = await users.createUser({ username: 'leaving', password: 'leaving-pass-1' });
    const stay = await users.createUser({ username: 'staying', password: 'staying-pass-1' });
    const a = await track('a');
    await favourites.addFavourite(user.id, a.id);
    await favourites.addFavourite(stay.id, a.id);
    const show = await shows.createShow({
      title: 'Last Night',
      venue: 'The Saint',
      location: 'Asbury Park, NJ',
      date: '2099-01-01',
      time: '9:00 PM',
      guestListCapacity: 2,
    });
    await guests.requestGuestListSpot(show.id, user);
    await guests.requestGuestListSpot(show.id, stay);
    await sessions.SessionModel.create({
      _id: 'session-of-leaving',
      data: { userId: user.id },
      userId: user.id,
      expiresAt: new Date(Date.now() + 60_000),
    });

    await accounts.deleteAccount(user);
    expect(await users.getUserById(user.id)).toBeNull();
    expect(await users.verifyLogin('leaving', 'leaving-pass-1')).toBeNull();
    expect(await sessions.SessionModel.countDocuments({ userId: user.id })).toBe(0);
    expect(await favourites.listFavouriteTrackIds(user.id)).toEqual([]);
    expect(await favourites.listFavouriteTrackIds(stay.id)).toEqual([a.id]);
    expect((await guests.listGuestList(show.id)).map((s) => s.username)).toEqual(['staying']);
    expect((await shows.getShow(show.id))?.guestListCount).toBe(1);
  });

  it('refuses administrators', async () => {
    const admin = await users.createUser({
      username: 'boss',
      password: 'boss-pass-1',
      isAdmin: true,
    });
    await expect(accounts.deleteAccount(admin)).rejects.toBeInstanceOf(accounts.AdminAccountError);
    expect(await users.getUserById(admin.id)).not.toBeNull();
  });
});
