import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearDatabase, setupTestDatabase } from '../helpers/test-db';
import type * as UsersModule from '~/models/user.server';
import type * as SubscribersModule from '~/models/subscriber.server';
import type * as SettingsModule from '~/models/newsletter-settings.server';
import type * as DeliveriesModule from '~/models/mail-delivery.server';
import type * as ShowsModule from '~/models/show.server';
import type * as ShowserviceModule from '~/services/shows.server';
import type * as AccountemailModule from '~/services/account-email.server';

/**
 * The account's email, its newsletter toggle and the guest-list confirmation email
 * (decision 020), on the embedded store. No mail worker runs here: queued messages stay in
 * the queue, where the test reads them.
 */
setupTestDatabase();

let users: typeof UsersModule;
let subscribers: typeof SubscribersModule;
let settings: typeof SettingsModule;
let deliveries: typeof DeliveriesModule;
let shows: typeof ShowsModule;
let showService: typeof ShowserviceModule;
let accountEmail: typeof AccountemailModule;

beforeAll(async () => {
  users = await import('~/models/user.server');
  subscribers = await import('~/models/subscriber.server');
  settings = await import('~/models/newsletter-settings.server');
  deliveries = await import('~/models/mail-delivery.server');
  shows = await import('~/models/show.server');
  showService = await import('~/services/shows.server');
  accountEmail = await import('~/services/account-email.server');
});
beforeEach(async () => {
  await clearDatabase();
});

const member = (username = 'nova') => users.createUser({ username, password: 'secret-1' });
const request = new Request('http://localhost:3000/account', { method: 'POST' });
const statusOf = async (email: string) => (await subscribers.findSubscriberByEmail(email))?.status;
const queued = (purpose: string) =>
  deliveries.MailDelivery.find({ purpose }, { to: 1, subject: 1, text: 1, _id: 0 }).lean();

describe('the account email and newsletter toggle', () => {
  it('starts without an email; saving one with the newsletter on subscribes it at once', async () => {
    const user = await member();
    expect(await accountEmail.getAccountEmail(user.id)).toEqual({ email: null, newsletter: 'off' });
    const saved = await accountEmail.saveAccountEmail(
      user,
      { email: ' Nova@Example.com ', newsletter: true },
      request,
    );
    expect(saved).toEqual({ email: 'Nova@Example.com', newsletter: 'subscribed' });
    expect(await statusOf('nova@example.com')).toBe('active');
    expect(await accountEmail.getAccountEmail(user.id)).toEqual({
      email: 'Nova@Example.com',
      newsletter: 'subscribed',
    });
    // Saving again changes nothing and is not an error (already on the list).
    await accountEmail.saveAccountEmail(
      user,
      { email: 'nova@example.com', newsletter: true },
      request,
    );
    expect(await subscribers.countSubscribers()).toBe(1);
  });

  it('with double opt-in the address waits for its confirmation email', async () => {
    await settings.saveNewsletterSettings({ doubleOptIn: true });
    const user = await member();
    const saved = await accountEmail.saveAccountEmail(
      user,
      { email: 'nova@example.com', newsletter: true },
      request,
    );
    expect(saved.newsletter).toBe('pending');
    expect(await statusOf('nova@example.com')).toBe('pending');
    const mails = await queued('confirm');
    expect(mails.map((m) => m.to)).toEqual(['nova@example.com']);
  });

  it('off unsubscribes the address; a new address takes the subscription; no address, no newsletter', async () => {
    const user = await member();
    await accountEmail.saveAccountEmail(
      user,
      { email: 'old@example.com', newsletter: true },
      request,
    );
    await accountEmail.saveAccountEmail(
      user,
      { email: 'new@example.com', newsletter: true },
      request,
    );
    expect(await statusOf('old@example.com')).toBe('unsubscribed');
    expect(await statusOf('new@example.com')).toBe('active');

    await accountEmail.saveAccountEmail(
      user,
      { email: 'new@example.com', newsletter: false },
      request,
    );
    expect(await statusOf('new@example.com')).toBe('unsubscribed');
    expect((await accountEmail.getAccountEmail(user.id)).newsletter).toBe('off');

    await accountEmail.saveAccountEmail(
      user,
      { email: 'new@example.com', newsletter: true },
      request,
    );
    const saved = await accountEmail.saveAccountEmail(
      user,
      { email: null, newsletter: false },
      request,
    );
    expect(saved).toEqual({ email: null, newsletter: 'off' });
    expect(await statusOf('new@example.com')).toBe('unsubscribed');
    expect(await users.getUserEmail(user.id)).toBeNull();
  });

  it('an address someone subscribed through the public form shows as on, and off takes it off', async () => {
    await subscribers.createSubscriber({ email: 'fan@example.com' });
    const user = await member();
    await accountEmail.saveAccountEmail(
      user,
      { email: 'fan@example.com', newsletter: true },
      request,
    );
    expect(await subscribers.countSubscribers()).toBe(1);
    expect((await accountEmail.getAccountEmail(user.id)).newsletter).toBe('subscribed');
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

  it('goes to the account email with a new spot, once; nothing without an address', async () => {
    const show = await upcoming();
    const withEmail = await member('nova');
    await users.setUserEmail(withEmail.id, 'nova@example.com');
    const without = await member('tide');

    expect(await showService.joinGuestList(show, withEmail, 'Boardwalk Night', request)).toBe(
      'added',
    );
    expect(await showService.joinGuestList(show, withEmail, 'Boardwalk Night', request)).toBe(
      'already',
    );
    expect(await showService.joinGuestList(show, without, 'Boardwalk Night', request)).toBe(
      'added',
    );

    const mails = await queued('guest-list');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: 'nova@example.com',
      subject: "You're on the guest list: Boardwalk Night",
    });
    expect(mails[0]!.text).toContain('Give your username (nova) at the door.');
  });
});
