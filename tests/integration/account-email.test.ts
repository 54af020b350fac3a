import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as GuestListModule from '~/models/guest-list.server';
import type * as DeliveriesModule from '~/models/mail-delivery.server';
import type * as SettingsModule from '~/models/newsletter-settings.server';
import type * as ShowsModule from '~/models/show.server';
import type * as SubscribersModule from '~/models/subscriber.server';
import type * as UsersModule from '~/models/user.server';
import type * as RateLimitModule from '~/platform/rate-limit.server';
import type * as AccountemailModule from '~/services/account-email.server';
import type * as AccountsModule from '~/services/accounts.server';
import type * as ShowserviceModule from '~/services/shows.server';
import type { UserJSON } from '~/types/entities';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * The account's email, its verification link and limits, its newsletter toggle and the
 * guest-list confirmation email (decisions 020 and 030), on the embedded store. No mail
 * worker runs here: queued messages stay in the queue, where the test reads them (and the
 * verification link from them).
 */
setupTestDatabase();

let users: typeof UsersModule;
let subscribers: typeof SubscribersModule;
let settings: typeof SettingsModule;
let deliveries: typeof DeliveriesModule;
let shows: typeof ShowsModule;
let showService: typeof ShowserviceModule;
let guestList: typeof GuestListModule;
let accountEmail: typeof AccountemailModule;
let accounts: typeof AccountsModule;
let rateLimits: typeof RateLimitModule;

beforeAll(async () => {
  users = await import('~/models/user.server');
  subscribers = await import('~/models/subscriber.server');
  settings = await import('~/models/newsletter-settings.server');
  deliveries = await import('~/models/mail-delivery.server');
  shows = await import('~/models/show.server');
  showService = await import('~/services/shows.server');
  guestList = await import('~/models/guest-list.server');
  accountEmail = await import('~/services/account-email.server');
  accounts = await import('~/services/accounts.server');
  rateLimits = await import('~/platform/rate-limit.server');
});
beforeEach(async () => {
  await clearDatabase();
  // The limiters are rebuilt on the emptied collection (the counters start again).
  rateLimits.configureRateLimits({});
});

const member = (username = 'nova') => users.createUser({ username, password: 'secret-1' });
const request = new Request('http://localhost:3000/account', { method: 'POST' });
const statusOf = async (email: string) => (await subscribers.findSubscriberByEmail(email))?.status;
const queued = (purpose: string) =>
  deliveries.MailDelivery.find({ purpose }, { to: 1, subject: 1, text: 1, _id: 0 }).lean();
const save = (user: UserJSON, email: string | null, newsletter = false) =>
  accountEmail.saveAccountEmail(user, { email, newsletter }, request);

/** The token of the latest verification link queued for this address. */
async function linkTo(email: string): Promise<string> {
  const mails = (await queued('verify-email')).filter((m) => m.to === email);
  const last = mails.at(-1);
  const token = last?.text?.match(/\/account\/verify-email\/([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no verification link to ${email}`);
  return token;
}

/** Give the address and follow its link: the address is the account's confirmed one. */
async function confirmedAddress(user: UserJSON, email: string) {
  expect((await save(user, email)).result).toBe('link-sent');
  const verified = await accountEmail.verifyAccountEmail(user, await linkTo(email));
  expect(verified.result).toBe('confirmed');
  return verified;
}

const TOO_MANY = /^Too many attempts\. Please try again in \d+ minutes?\.$/;

describe('an address is the member’s only once it is proven', () => {
  it("a member gives a stranger's address: one link goes out, and nothing else happens to it", async () => {
    await subscribers.createSubscriber({ email: 'stranger@example.com' });
    const user = await member();
    const saved = await save(user, 'stranger@example.com', false);
    expect(saved).toEqual({
      result: 'link-sent',
      pendingEmail: 'stranger@example.com',
      email: null,
    });
    // The newsletter box unticked, or ticked: the stranger's subscription is not touched.
    expect(await statusOf('stranger@example.com')).toBe('active');
    expect((await save(user, 'stranger@example.com', true)).result).toBe('link-live');
    expect((await save(user, 'Stranger@example.com ', false)).result).toBe('link-live');
    expect(await statusOf('stranger@example.com')).toBe('active');
    expect(await subscribers.countSubscribers()).toBe(1);

    const links = await queued('verify-email');
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({
      to: 'stranger@example.com',
      subject: 'Confirm your email address for Night Shore',
    });
    expect(links[0]!.text).toContain('http://localhost:3000/account/verify-email/');
    expect(await accountEmail.getAccountEmail(user.id)).toEqual({
      email: null,
      pendingEmail: 'stranger@example.com',
      newsletter: 'off',
    });
    // The unconfirmed address is not the account's: no guest-list email goes to it.
    expect(await users.getUserEmail(user.id)).toBeNull();
  });

  it('3 links an hour to one address, from any accounts; the fourth is refused and not sent', async () => {
    const results = [];
    for (const name of ['ava', 'bo', 'cy', 'dee']) {
      results.push(await save(await member(name), 'target@example.com'));
    }
    expect(results.slice(0, 3).map((r) => r.result)).toEqual([
      'link-sent',
      'link-sent',
      'link-sent',
    ]);
    expect(results[3]).toMatchObject({
      result: 'too-many',
      message: expect.stringMatching(TOO_MANY),
    });
    expect(await queued('verify-email')).toHaveLength(3);
    // The refused account was left as it was.
    const dee = await users.verifyLogin('dee', 'secret-1');
    expect((await accountEmail.getAccountEmail(dee!.id)).pendingEmail).toBeNull();
  });

  it('3 links an hour from one account, resent or to new addresses; the fourth is refused', async () => {
    const user = await member();
    expect((await save(user, 'one@example.com')).result).toBe('link-sent');
    expect((await accountEmail.resendEmailLink(user)).result).toBe('link-sent');
    expect((await save(user, 'two@example.com')).result).toBe('link-sent');
    const refused = await save(user, 'three@example.com');
    expect(refused).toMatchObject({ result: 'too-many', message: expect.stringMatching(TOO_MANY) });
    expect(await accountEmail.resendEmailLink(user)).toMatchObject({ result: 'too-many' });
    expect((await queued('verify-email')).map((m) => m.to)).toEqual([
      'one@example.com',
      'one@example.com',
      'two@example.com',
    ]);
    expect((await accountEmail.getAccountEmail(user.id)).pendingEmail).toBe('two@example.com');
  });

  it('a link confirms once, for its own account, within 24 hours, and only the latest one', async () => {
    const nova = await member('nova');
    const tide = await member('tide');
    await save(nova, 'nova@example.com');
    const first = await linkTo('nova@example.com');
    await accountEmail.resendEmailLink(nova);
    const second = await linkTo('nova@example.com');
    expect(second).not.toBe(first);

    expect(await accountEmail.verifyAccountEmail(nova, first)).toEqual({
      result: 'invalid',
    });
    expect(await accountEmail.verifyAccountEmail(nova, 'not-a-token')).toEqual({
      result: 'invalid',
    });
    expect(await accountEmail.verifyAccountEmail(tide, second)).toEqual({
      result: 'foreign',
    });
    await users.User.updateOne(
      { id: nova.id },
      { $set: { pendingEmailExpiresAt: new Date(Date.now() - 1000) } },
    );
    expect(await accountEmail.verifyAccountEmail(nova, second)).toEqual({
      result: 'expired',
    });
    await users.User.updateOne(
      { id: nova.id },
      { $set: { pendingEmailExpiresAt: new Date(Date.now() + 60_000) } },
    );
    // Two clicks at once: one confirms, the other finds the link used.
    const twins = await Promise.all([
      accountEmail.verifyAccountEmail(nova, second),
      accountEmail.verifyAccountEmail(nova, second),
    ]);
    expect(twins.map((t) => t.result).sort()).toEqual(['confirmed', 'used']);
    expect(await accountEmail.verifyAccountEmail(nova, second)).toEqual({
      result: 'used',
    });
    expect(await accountEmail.getAccountEmail(nova.id)).toEqual({
      email: 'nova@example.com',
      pendingEmail: null,
      newsletter: 'off',
    });
    expect(await users.getUserEmail(nova.id)).toBe('nova@example.com');
    expect(await users.getUserEmail(tide.id)).toBeNull();
  });

  it('a confirmed address stays in use until the new one is confirmed; the subscription moves with it', async () => {
    const user = await member();
    await confirmedAddress(user, 'old@example.com');
    expect(await save(user, 'old@example.com', true)).toMatchObject({
      result: 'saved',
      newsletter: 'subscribed',
    });
    expect(await save(user, 'new@example.com', false)).toEqual({
      result: 'link-sent',
      pendingEmail: 'new@example.com',
      email: 'old@example.com',
    });
    // Unticked box, unconfirmed address: nothing changes for the confirmed one.
    expect(await users.getUserEmail(user.id)).toBe('old@example.com');
    expect(await statusOf('old@example.com')).toBe('active');
    expect(await statusOf('new@example.com')).toBeUndefined();

    const verified = await accountEmail.verifyAccountEmail(user, await linkTo('new@example.com'));
    expect(verified).toEqual({
      result: 'confirmed',
      email: 'new@example.com',
      newsletter: 'subscribed',
    });
    expect(await statusOf('old@example.com')).toBe('unsubscribed');
    expect(await statusOf('new@example.com')).toBe('active');
  });

  it('going back to the confirmed address cancels the change and leaves the newsletter alone', async () => {
    const user = await member();
    await confirmedAddress(user, 'kept@example.com');
    await save(user, 'kept@example.com', true);
    await save(user, 'other@example.com');
    expect(await save(user, 'kept@example.com', false)).toEqual({
      result: 'change-cancelled',
      email: 'kept@example.com',
      newsletter: 'subscribed',
    });
    expect(await statusOf('kept@example.com')).toBe('active');
    expect((await accountEmail.getAccountEmail(user.id)).pendingEmail).toBeNull();
  });

  it('addresses saved before verification existed wait for their link', async () => {
    await users.User.collection.insertOne({
      id: 500,
      username: 'legacy',
      usernameLower: 'legacy',
      passwordHash: 'x',
      isAdmin: false,
      email: 'legacy@example.com',
    });
    expect(await users.migrateUnconfirmedEmails()).toBe(1);
    expect(await users.migrateUnconfirmedEmails()).toBe(0);
    expect(await users.getUserEmail(500)).toBeNull();
    expect(await accountEmail.getAccountEmail(500)).toEqual({
      email: null,
      pendingEmail: 'legacy@example.com',
      newsletter: 'off',
    });
    const legacy = { id: 500, username: 'legacy', isAdmin: false };
    expect(await accountEmail.resendEmailLink(legacy)).toEqual({
      result: 'link-sent',
      pendingEmail: 'legacy@example.com',
    });
  });
});

describe('the newsletter toggle on a confirmed address', () => {
  it('on subscribes it at once; saving again is not an error', async () => {
    const user = await member();
    await confirmedAddress(user, 'Nova@Example.com');
    const saved = await save(user, ' nova@example.com ', true);
    expect(saved).toEqual({ result: 'saved', email: 'Nova@Example.com', newsletter: 'subscribed' });
    expect(await statusOf('nova@example.com')).toBe('active');
    expect(await accountEmail.getAccountEmail(user.id)).toEqual({
      email: 'Nova@Example.com',
      pendingEmail: null,
      newsletter: 'subscribed',
    });
    await save(user, 'nova@example.com', true);
    expect(await subscribers.countSubscribers()).toBe(1);
  });

  it('with double opt-in the address waits for its confirmation email', async () => {
    await settings.saveNewsletterSettings({ doubleOptIn: true });
    const user = await member();
    await confirmedAddress(user, 'nova@example.com');
    const saved = await save(user, 'nova@example.com', true);
    expect(saved).toMatchObject({ result: 'saved', newsletter: 'pending' });
    expect(await statusOf('nova@example.com')).toBe('pending');
    const mails = await queued('confirm');
    expect(mails.map((m) => m.to)).toEqual(['nova@example.com']);
  });

  it('off unsubscribes it; removing the address takes it off the list', async () => {
    const user = await member();
    await confirmedAddress(user, 'new@example.com');
    await save(user, 'new@example.com', true);
    await save(user, 'new@example.com', false);
    expect(await statusOf('new@example.com')).toBe('unsubscribed');
    expect((await accountEmail.getAccountEmail(user.id)).newsletter).toBe('off');

    await save(user, 'new@example.com', true);
    expect(await statusOf('new@example.com')).toBe('active');
    expect(await save(user, null)).toEqual({ result: 'removed' });
    expect(await statusOf('new@example.com')).toBe('unsubscribed');
    expect(await users.getUserEmail(user.id)).toBeNull();
  });

  it('an address someone subscribed through the public form shows as on', async () => {
    await subscribers.createSubscriber({ email: 'fan@example.com' });
    const user = await member();
    await confirmedAddress(user, 'fan@example.com');
    expect((await accountEmail.getAccountEmail(user.id)).newsletter).toBe('subscribed');
    await save(user, 'fan@example.com', true);
    expect(await subscribers.countSubscribers()).toBe(1);
  });

  it('turning it on counts against the sign-up limit', async () => {
    rateLimits.configureRateLimits({ subscribe: { points: 1, durationSeconds: 3600 } });
    const user = await member();
    await confirmedAddress(user, 'nova@example.com');
    expect((await save(user, 'nova@example.com', true)).result).toBe('saved');
    await save(user, 'nova@example.com', false);
    expect(await save(user, 'nova@example.com', true)).toMatchObject({ result: 'too-many' });
    expect(await statusOf('nova@example.com')).toBe('unsubscribed');
  });
});

describe('the guest-list confirmation email', () => {
  const upcoming = () =>
    shows.createShow({
      title: 'Boardwalk Night',
      venue: 'Convention Hall',
      location: 'Asbury Park, NJ',
      date: '2099-07-04',
      time: '8:00 PM',
      guestListCapacity: 5,
    });
  const join = (show: Awaited<ReturnType<typeof upcoming>>, user: UserJSON) =>
    showService.joinGuestList(show, user, 'Boardwalk Night');

  it('goes to the confirmed address with a new spot; nothing without one, nothing to an unconfirmed one', async () => {
    const show = await upcoming();
    const withEmail = await member('nova');
    await confirmedAddress(withEmail, 'nova@example.com');
    const without = await member('tide');
    const unconfirmed = await member('reef');
    await save(unconfirmed, 'reef@example.com');

    expect(await join(show, withEmail)).toBe('added');
    expect(await join(show, withEmail)).toBe('already');
    expect(await join(show, without)).toBe('added');
    expect(await join(show, unconfirmed)).toBe('added');

    const mails = await queued('guest-list');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: 'nova@example.com',
      subject: "You're on the guest list: Boardwalk Night",
    });
    expect(mails[0]!.text).toContain('Give your username (nova) at the door.');
  });

  it('goes once per member and show, however often the spot is cancelled and asked again', async () => {
    const show = await upcoming();
    const other = await upcoming();
    const user = await member('nova');
    await confirmedAddress(user, 'nova@example.com');
    for (let round = 0; round < 3; round += 1) {
      expect(await join(show, user)).toBe('added');
      expect(await guestList.cancelGuestListSpot(show.id, user.id)).toBe(true);
    }
    // Cancelled and asked again at once, from two tabs: still one email.
    await Promise.all([join(show, user), join(show, user)]);
    expect(await join(other, user)).toBe('added');
    const mails = await queued('guest-list');
    expect(mails).toHaveLength(2);
    // The admin still sees the current list.
    expect(await guestList.listGuestList(show.id)).toMatchObject([{ userId: user.id }]);
  });

  it('racing claims for one member and show: exactly one wins', async () => {
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => guestList.claimGuestListConfirmation(1, 1)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('deleting the account forgets the confirmations sent to it', async () => {
    const show = await upcoming();
    const user = await member('nova');
    await confirmedAddress(user, 'nova@example.com');
    await join(show, user);
    await accounts.deleteAccount(user);
    expect(await guestList.GuestListConfirmation.countDocuments({ userId: user.id })).toBe(0);
    expect(await guestList.listGuestList(show.id)).toEqual([]);
  });
});
