import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as GuestListModule from '~/models/guest-list.server';
import type * as ShowModule from '~/models/show.server';
import type * as UsersModule from '~/models/user.server';
import type * as AccountsModule from '~/services/accounts.server';
import type * as ShowsModule from '~/services/shows.server';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * Members' guest lists (decision 018) on the embedded store: the capacity holds under
 * concurrent requests, one spot per member, cancelling frees a spot, and deleting a show or
 * an account takes its spots with it, even when a request of the account races the deletion
 * (decision 030).
 */
setupTestDatabase();

let guests: typeof GuestListModule;
let shows: typeof ShowModule;
let showService: typeof ShowsModule;
let users: typeof UsersModule;
let accounts: typeof AccountsModule;

beforeAll(async () => {
  guests = await import('~/models/guest-list.server');
  shows = await import('~/models/show.server');
  showService = await import('~/services/shows.server');
  users = await import('~/models/user.server');
  accounts = await import('~/services/accounts.server');
});
/** Accounts 1 to 60 (a request needs its member's account). */
const MEMBERS = 60;
beforeEach(async () => {
  await clearDatabase();
  await users.User.insertMany(
    Array.from({ length: MEMBERS }, (_, i) => ({
      id: i + 1,
      username: `member${i + 1}`,
      usernameLower: `member${i + 1}`,
      passwordHash: 'not-a-password',
    })),
  );
});

const TODAY = '2026-11-24';
const member = (id: number) => ({ id, username: `member${id}` });
const show = (extra: Partial<Parameters<typeof shows.createShow>[0]> = {}) =>
  shows.createShow({
    title: 'Boardwalk Night',
    venue: 'The Stone Pony',
    location: 'Asbury Park, NJ',
    date: '2026-12-12',
    time: '8:00 PM',
    guestListCapacity: 10,
    ...extra,
  });

describe('guest lists', () => {
  it('50 concurrent requests for 10 spots leave exactly 10 members on the list', async () => {
    const { id } = await show();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => guests.requestGuestListSpot(id, member(i + 1), TODAY)),
    );
    expect(results.filter((r) => r === 'added')).toHaveLength(10);
    expect(results.filter((r) => r === 'full')).toHaveLength(40);
    expect(await guests.listGuestList(id)).toHaveLength(10);
    expect((await shows.getShow(id))?.guestListCount).toBe(10);
  });

  it('one spot per member, even when the same member asks many times at once', async () => {
    const { id } = await show({ guestListCapacity: 3 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => guests.requestGuestListSpot(id, member(7), TODAY)),
    );
    // One is added; the others hear 'already', or 'full' while a twin held a reservation.
    expect(results.filter((r) => r === 'added')).toHaveLength(1);
    expect(results.every((r) => r === 'added' || r === 'already' || r === 'full')).toBe(true);
    expect(await guests.requestGuestListSpot(id, member(7), TODAY)).toBe('already');
    expect((await shows.getShow(id))?.guestListCount).toBe(1);
    expect(await guests.listGuestList(id)).toMatchObject([{ userId: 7, username: 'member7' }]);
  });

  it('cancelling frees the spot for someone else', async () => {
    const { id } = await show({ guestListCapacity: 1 });
    expect(await guests.requestGuestListSpot(id, member(1), TODAY)).toBe('added');
    expect(await guests.requestGuestListSpot(id, member(2), TODAY)).toBe('full');
    expect(await guests.cancelGuestListSpot(id, 1)).toBe(true);
    expect(await guests.cancelGuestListSpot(id, 1)).toBe(false);
    expect(await guests.requestGuestListSpot(id, member(2), TODAY)).toBe('added');
    expect((await shows.getShow(id))?.guestListCount).toBe(1);
  });

  it('is closed without a capacity, for past shows and for unknown shows', async () => {
    const none = await show({ guestListCapacity: 0 });
    const past = await show({ date: '2026-11-01' });
    expect(await guests.requestGuestListSpot(none.id, member(1), TODAY)).toBe('closed');
    expect(await guests.requestGuestListSpot(past.id, member(1), TODAY)).toBe('closed');
    expect(await guests.requestGuestListSpot(999, member(1), TODAY)).toBe('closed');
    expect(await guests.listGuestList(none.id)).toEqual([]);
  });

  it('an update without a capacity keeps it; lowering it removes no one', async () => {
    const created = await show({ guestListCapacity: 2 });
    await guests.requestGuestListSpot(created.id, member(1), TODAY);
    await guests.requestGuestListSpot(created.id, member(2), TODAY);
    const { guestListCapacity: _c, ...rest } = {
      ...created,
      ticketUrl: null,
      description: null,
    };
    expect((await shows.updateShow(created.id, rest))?.guestListCapacity).toBe(2);
    const lowered = await shows.updateShow(created.id, { ...rest, guestListCapacity: 1 });
    expect(lowered).toMatchObject({ guestListCapacity: 1, guestListCount: 2 });
    expect(await guests.requestGuestListSpot(created.id, member(3), TODAY)).toBe('full');
  });

  it("an account's spots go with it, and a show's list with the show", async () => {
    const a = await show();
    const b = await show();
    for (const s of [a, b]) {
      await guests.requestGuestListSpot(s.id, member(1), TODAY);
      await guests.requestGuestListSpot(s.id, member(2), TODAY);
    }
    expect(await guests.removeGuestListSpotsOfUser(1)).toBe(2);
    expect((await shows.getShow(a.id))?.guestListCount).toBe(1);
    expect(await guests.guestListShowIdsOfUser(1)).toEqual([]);
    expect(await guests.guestListShowIdsOfUser(2)).toEqual([a.id, b.id]);
    await showService.removeShow(a.id);
    expect(await guests.listGuestList(a.id)).toEqual([]);
    expect(await guests.guestListShowIdsOfUser(2)).toEqual([b.id]);
  });

  it('asks refused for an account that is gone or being deleted', async () => {
    const { id } = await show();
    expect(await guests.requestGuestListSpot(id, member(MEMBERS + 1), TODAY)).toBe('closed');
    await users.markUserDeleting(2);
    expect(await guests.requestGuestListSpot(id, member(2), TODAY)).toBe('closed');
    expect(await guests.listGuestList(id)).toEqual([]);
    expect((await shows.getShow(id))?.guestListCount).toBe(0);
  });

  it('account deletion wins its race with a guest-list request, 200 rounds', async () => {
    const { id } = await show({ guestListCapacity: 1000, date: '2099-12-12' });
    // A member who stays keeps a spot: the count is checked against real spots.
    expect(await guests.requestGuestListSpot(id, member(1), TODAY)).toBe('added');
    const theShow = (await shows.getShow(id))!;
    const pause = () =>
      new Promise<void>((resolve) => setTimeout(resolve, Math.floor(Math.random() * 3)));
    for (let round = 0; round < 200; round += 1) {
      const doc = await users.User.create({
        id: 1000 + round,
        username: `racer${round}`,
        usernameLower: `racer${round}`,
        passwordHash: 'not-a-password',
      });
      const member = users.toUserJSON(doc);
      const late = round % 2 === 0;
      await Promise.all([
        (late ? pause() : Promise.resolve()).then(() => accounts.deleteAccount(member)),
        (late ? Promise.resolve() : pause()).then(() =>
          showService.joinGuestList(theShow, member, 'Boardwalk Night'),
        ),
      ]);
    }
    const spots = await guests.GuestListSpot.find({ showId: id }).lean();
    const accountIds = new Set(
      (await users.User.find({}, { id: 1 }).lean()).map((u) => u.id as number),
    );
    expect(spots.filter((spot) => !accountIds.has(spot.userId))).toHaveLength(0);
    expect(spots.map((spot) => spot.userId)).toEqual([1]);
    expect((await shows.getShow(id))?.guestListCount).toBe(spots.length);
  }, 120_000);

  it('exports the list as CSV, safe to open in a spreadsheet', async () => {
    const s = await show();
    await guests.requestGuestListSpot(s.id, { id: 1, username: '=cmd|calc' }, TODAY);
    const csv = await showService.guestListCsv(s);
    const [header, row] = csv.split('\r\n');
    expect(header).toBe('"Name","Requested (New York time)"');
    expect(row).toMatch(/^"'=cmd\|calc","\d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2} [AP]M"$/);
  });
});
