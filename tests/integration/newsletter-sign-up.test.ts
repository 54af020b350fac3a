import crypto from 'node:crypto';

import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as ToastModule from '~/auth/toast.server';
import type * as TokensModule from '~/mail/tokens.server';
import type * as MailDeliveryModule from '~/models/mail-delivery.server';
import type * as NewsletterSettingsModule from '~/models/newsletter-settings.server';
import type * as SubscriberModule from '~/models/subscriber.server';
import type * as ConfirmRoute from '~/routes/_public+/newsletter.confirm.$token';
import type * as UnsubscribeRoute from '~/routes/_public+/unsubscribe.$token';
import type * as ApiSubscribeRoute from '~/routes/api+/subscribe';
import type * as PublicFormsModule from '~/services/public-forms.server';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * Newsletter sign-up privacy and link lifetimes (decision 029), through the routes' own
 * loaders and actions on the embedded store: a known address is answered exactly as a new
 * one, nothing comes back on the list without its owner's confirmation, confirmation links
 * expire and only confirm the sign-up they were sent for, unsubscribe links only take off.
 */
setupTestDatabase();
// Every test signs up many times from one client: the abuse limit is not what is tested.
process.env.RATE_LIMIT_SUBSCRIBE_PER_IP = '100000';

const SECRET = process.env.SESSION_SECRET!;
const DAY = 24 * 60 * 60 * 1000;

let api: typeof ApiSubscribeRoute;
let confirmRoute: typeof ConfirmRoute;
let unsubscribeRoute: typeof UnsubscribeRoute;
let forms: typeof PublicFormsModule;
let tokens: typeof TokensModule;
let subscribers: typeof SubscriberModule;
let deliveries: typeof MailDeliveryModule;
let settings: typeof NewsletterSettingsModule;
let getToast: typeof ToastModule.getToast;

beforeAll(async () => {
  api = await import('~/routes/api+/subscribe');
  confirmRoute = await import('~/routes/_public+/newsletter.confirm.$token');
  unsubscribeRoute = await import('~/routes/_public+/unsubscribe.$token');
  forms = await import('~/services/public-forms.server');
  tokens = await import('~/mail/tokens.server');
  subscribers = await import('~/models/subscriber.server');
  deliveries = await import('~/models/mail-delivery.server');
  settings = await import('~/models/newsletter-settings.server');
  ({ getToast } = await import('~/auth/toast.server'));
});

beforeEach(async () => {
  await clearDatabase();
});

const ORIGIN = 'http://localhost';

async function apiSubscribe(body: Record<string, string>) {
  const response = await api.action({
    request: new Request(`${ORIGIN}/api/subscribe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
      body: JSON.stringify(body),
    }),
    params: {},
    context: {},
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** A page loader's or action's answer (`data(...)` or a plain object) as status and body. */
function answered(result: unknown): { status: number; body: Record<string, unknown> } {
  const wrapped = result as {
    type?: string;
    data: Record<string, unknown>;
    init?: { status?: number };
  };
  if (wrapped.type !== 'DataWithResponseInit') {
    return { status: 200, body: result as Record<string, unknown> };
  }
  return { status: wrapped.init?.status ?? 200, body: wrapped.data };
}

const pageRequest = (path: string, method = 'GET') =>
  new Request(`${ORIGIN}${path}`, {
    method,
    ...(method === 'POST'
      ? {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN },
          body: 'List-Unsubscribe=One-Click',
        }
      : {}),
  });

async function openConfirm(token: string) {
  return answered(
    await confirmRoute.loader({
      request: pageRequest(`/newsletter/confirm/${token}`),
      params: { token },
      context: {},
    }),
  );
}
async function postConfirm(token: string) {
  return answered(
    await confirmRoute.action({
      request: pageRequest(`/newsletter/confirm/${token}`, 'POST'),
      params: { token },
      context: {},
    }),
  );
}
async function openUnsubscribe(token: string) {
  return answered(
    await unsubscribeRoute.loader({
      request: pageRequest(`/unsubscribe/${token}`),
      params: { token },
      context: {},
    }),
  );
}
async function postUnsubscribe(token: string) {
  return answered(
    await unsubscribeRoute.action({
      request: pageRequest(`/unsubscribe/${token}`, 'POST'),
      params: { token },
      context: {},
    }),
  );
}

const statusOf = async (email: string) =>
  (await subscribers.findSubscriberByEmail(email))?.status ?? null;

/** The emails queued for an address, oldest first: their purpose. */
const mailsTo = async (email: string) =>
  (await deliveries.MailDelivery.find({ to: email }).sort({ createdAt: 1, _id: 1 }).lean()).map(
    (d) => d.purpose,
  );

/** The link a queued confirmation email carries. */
async function confirmationToken(email: string): Promise<string> {
  const mail = await deliveries.MailDelivery.findOne({ to: email, purpose: 'confirm' })
    .sort({ _id: -1 })
    .lean();
  const token = /\/newsletter\/confirm\/([\w.-]+)/.exec(mail?.text ?? '')?.[1];
  expect(token, `a confirmation link for ${email}`).toBeTruthy();
  return token!;
}

/** One address in each status, all signed up by their owners earlier. */
async function knownAddresses() {
  const active = await subscribers.createSubscriber({ name: 'Ann Active', email: 'a@example.com' });
  await subscribers.createSubscriber({
    name: 'Pat Pending',
    email: 'p@example.com',
    status: 'pending',
  });
  const left = await subscribers.createSubscriber({ name: 'Una Left', email: 'u@example.com' });
  await subscribers.unsubscribeSubscriber(left.id);
  const bounced = await subscribers.createSubscriber({
    name: 'Bo Bounced',
    email: 'b@example.com',
  });
  await subscribers.markSubscriberBounced(bounced.id, '550 No such user');
  return { active, left, bounced };
}

const KNOWN = ['a@example.com', 'p@example.com', 'u@example.com', 'b@example.com'];

describe('POST /api/subscribe answers a known address exactly as a new one', () => {
  for (const doubleOptIn of [false, true]) {
    it(`double opt-in ${doubleOptIn ? 'on' : 'off'}: same status and body, nothing stored in it`, async () => {
      await settings.saveNewsletterSettings({ doubleOptIn });
      await knownAddresses();
      const fresh = await apiSubscribe({ name: 'New Person', email: 'new@example.com' });
      expect(fresh).toEqual({
        status: 201,
        body: {
          status: doubleOptIn ? 'pending' : 'subscribed',
          message: doubleOptIn
            ? 'Check your inbox: follow the link in our email to confirm your subscription.'
            : 'You have been successfully subscribed to our newsletter.',
        },
      });
      for (const email of KNOWN) {
        for (const variant of [email, email.toUpperCase()]) {
          expect(await apiSubscribe({ name: 'Somebody Else', email: variant })).toEqual(fresh);
          expect(await apiSubscribe({ email: variant })).toEqual(fresh);
        }
      }
      // A bot's (honeypot) answer is the same too.
      expect(await apiSubscribe({ email: 'bot@example.com', website: 'http://spam' })).toEqual(
        fresh,
      );
      expect(await subscribers.findSubscriberByEmail('bot@example.com')).toBeNull();
    });
  }

  it('a known address keeps its stored name and sign-up date', async () => {
    await knownAddresses();
    const before = await subscribers.listSubscribers();
    for (const email of KNOWN) await apiSubscribe({ name: 'Mallory', email });
    const after = await subscribers.listSubscribers();
    expect(after.map(({ id, name, email, createdAt }) => ({ id, name, email, createdAt }))).toEqual(
      before.map(({ id, name, email, createdAt }) => ({ id, name, email, createdAt })),
    );
  });

  it('the page forms: the same redirect and toast for a known address as for a new one', async () => {
    await knownAddresses();
    const submit = async (email: string) => {
      const data = new FormData();
      for (const [k, v] of Object.entries({ name: 'Form Fan', email, privacy: 'on' }))
        data.set(k, v);
      const response = (await forms.subscribeAction(
        data,
        'full',
        '/',
        new Request(`${ORIGIN}/?index`, { method: 'POST' }),
      )) as Response;
      const cookie = /__toast=[^;]*/.exec(response.headers.get('Set-Cookie') ?? '')?.[0] ?? '';
      const { toast } = await getToast(new Request(`${ORIGIN}/`, { headers: { Cookie: cookie } }));
      // Each toast has its own random id (to show it once); the rest must be the same.
      const { id: _id, ...shown } = toast ?? {};
      return { status: response.status, location: response.headers.get('Location'), toast: shown };
    };
    const fresh = await submit('form-new@example.com');
    expect(fresh).toEqual({
      status: 302,
      location: '/?subscribed=1#newsletter',
      toast: expect.objectContaining({
        title: 'Subscribed!',
        description: 'You have been successfully subscribed to our newsletter.',
      }),
    });
    for (const email of KNOWN) expect(await submit(email)).toEqual(fresh);
  });
});

describe('nothing comes back on the list without its owner’s confirmation', () => {
  it('double opt-in off: an address that left or bounced becomes pending with a confirmation email', async () => {
    await settings.saveNewsletterSettings({ doubleOptIn: false });
    const { left, bounced } = await knownAddresses();
    await apiSubscribe({ email: 'u@example.com' });
    await apiSubscribe({ email: 'b@example.com' });
    expect(await statusOf('u@example.com')).toBe('pending');
    expect(await statusOf('b@example.com')).toBe('pending');
    expect(await subscribers.countSubscribers('active')).toBe(1);
    expect(await mailsTo('u@example.com')).toEqual(['confirm']);
    expect(await mailsTo('b@example.com')).toEqual(['confirm']);
    // Their owners follow the links: then, and only then, they are back.
    for (const [email, id] of [
      ['u@example.com', left.id],
      ['b@example.com', bounced.id],
    ] as const) {
      const token = await confirmationToken(email);
      expect(await openConfirm(token)).toEqual({
        status: 200,
        body: { state: 'ask', email: `${email[0]}•••@example.com` },
      });
      expect(await statusOf(email)).toBe('pending');
      expect((await postConfirm(token)).body.state).toBe('done');
      expect(await subscribers.getSubscriber(id)).toMatchObject({ status: 'active' });
    }
  });

  it('a member’s own confirmed address that left comes back at once from the account; a bounced one still needs its link', async () => {
    await settings.saveNewsletterSettings({ doubleOptIn: false });
    await knownAddresses();
    // What the account page does for the member's verified address (decision 030).
    const back = await subscribers.signUpSubscriber({
      email: 'u@example.com',
      doubleOptIn: false,
      ownerProven: true,
    });
    expect(back).toMatchObject({ subscriber: { status: 'active' }, mail: null });
    const bounced = await subscribers.signUpSubscriber({
      email: 'b@example.com',
      doubleOptIn: false,
      ownerProven: true,
    });
    expect(bounced).toMatchObject({ subscriber: { status: 'pending' }, mail: 'confirm' });
  });

  it('a pending address gets its confirmation again, at most once an hour', async () => {
    await settings.saveNewsletterSettings({ doubleOptIn: true });
    await apiSubscribe({ email: 'twice@example.com' });
    expect(await mailsTo('twice@example.com')).toEqual(['confirm']);
    await apiSubscribe({ email: 'twice@example.com' });
    expect(await mailsTo('twice@example.com')).toEqual(['confirm']);
    // An hour later a sign-up sends a fresh link (the clock is moved by back-dating the last).
    await subscribers.Subscriber.updateOne(
      { emailLower: 'twice@example.com' },
      {
        $set: { signUpMailAt: new Date(Date.now() - subscribers.CONFIRMATION_RESEND_INTERVAL_MS) },
      },
    );
    await apiSubscribe({ email: 'twice@example.com' });
    expect(await mailsTo('twice@example.com')).toEqual(['confirm', 'confirm']);
    expect(await statusOf('twice@example.com')).toBe('pending');
  });

  it('an active address is told it is already subscribed, at most once a day, and nothing else changes', async () => {
    await knownAddresses();
    for (let i = 0; i < 5; i++) await apiSubscribe({ email: 'a@example.com' });
    expect(await mailsTo('a@example.com')).toEqual(['already-subscribed']);
    const notice = await deliveries.MailDelivery.findOne({ to: 'a@example.com' }).lean();
    expect(notice?.subject).toMatch(/already subscribed/);
    // Its link only unsubscribes (and shows a button first).
    const unsubscribe = /\/unsubscribe\/([\w.-]+)/.exec(notice?.text ?? '')?.[1];
    expect((await openUnsubscribe(unsubscribe!)).body.state).toBe('ask');
    await subscribers.Subscriber.updateOne(
      { emailLower: 'a@example.com' },
      {
        $set: {
          signUpMailAt: new Date(Date.now() - subscribers.ALREADY_SUBSCRIBED_NOTICE_INTERVAL_MS),
        },
      },
    );
    await apiSubscribe({ email: 'a@example.com' });
    expect(await mailsTo('a@example.com')).toEqual(['already-subscribed', 'already-subscribed']);
    expect(await statusOf('a@example.com')).toBe('active');
  });
});

describe('confirmation links', () => {
  it('expire after 7 days: the page says so (410) and the address stays pending', async () => {
    await settings.saveNewsletterSettings({ doubleOptIn: true });
    await apiSubscribe({ email: 'late@example.com' });
    const subscriber = (await subscribers.findSubscriberByEmail('late@example.com'))!;
    // Signed as the sign-up's own link would have been, 7 days and a minute ago.
    const issued = Date.now() - 7 * DAY - 60_000;
    await subscribers.Subscriber.updateOne(
      { id: subscriber.id },
      { $set: { pendingSince: new Date(issued - 1000) } },
    );
    const stale = tokens.signLinkToken('confirm', subscriber.id, { now: issued });
    expect(await openConfirm(stale)).toEqual({
      status: 410,
      body: { state: 'expired', email: null },
    });
    expect(await postConfirm(stale)).toEqual({
      status: 410,
      body: { state: 'expired', email: null },
    });
    expect(await statusOf('late@example.com')).toBe('pending');
    // A link from before issue times existed ({id}.{mac}) is refused as expired too.
    const mac = crypto
      .createHmac('sha256', SECRET)
      .update(`night-shore:confirm:${subscriber.id}`)
      .digest('base64url')
      .slice(0, 32);
    expect((await postConfirm(`${subscriber.id}.${mac}`)).status).toBe(410);
    expect(await statusOf('late@example.com')).toBe('pending');
    // The link in the email (issued now) works.
    expect((await postConfirm(await confirmationToken('late@example.com'))).body.state).toBe(
      'done',
    );
    expect(await statusOf('late@example.com')).toBe('active');
  });

  it('a link issued before the address left does not bring it back, not even after a new sign-up', async () => {
    await settings.saveNewsletterSettings({ doubleOptIn: true });
    await apiSubscribe({ email: 'gone@example.com' });
    const first = await confirmationToken('gone@example.com');
    const subscriber = (await subscribers.findSubscriberByEmail('gone@example.com'))!;
    await subscribers.unsubscribeSubscriber(subscriber.id);
    expect((await openConfirm(first)).body.state).toBe('gone');
    expect((await postConfirm(first)).body.state).toBe('gone');
    expect(await statusOf('gone@example.com')).toBe('unsubscribed');

    // Signed up again (by anyone): pending, and the old link answers an earlier sign-up. A
    // sign-up email went to the address moments ago, so this one sends none (throttle).
    await new Promise((r) => setTimeout(r, 5));
    await apiSubscribe({ email: 'gone@example.com' });
    expect(await statusOf('gone@example.com')).toBe('pending');
    expect(await mailsTo('gone@example.com')).toEqual(['confirm']);
    expect(await postConfirm(first)).toMatchObject({ status: 410, body: { state: 'expired' } });
    expect(await statusOf('gone@example.com')).toBe('pending');
    // An hour later, signing up again sends a fresh link, which works.
    await subscribers.Subscriber.updateOne(
      { id: subscriber.id },
      {
        $set: { signUpMailAt: new Date(Date.now() - subscribers.CONFIRMATION_RESEND_INTERVAL_MS) },
      },
    );
    await apiSubscribe({ email: 'gone@example.com' });
    expect(await mailsTo('gone@example.com')).toEqual(['confirm', 'confirm']);
    const second = await confirmationToken('gone@example.com');
    expect(second).not.toBe(first);
    expect((await postConfirm(second)).body.state).toBe('done');
    expect(await statusOf('gone@example.com')).toBe('active');
    // Following it twice is harmless.
    expect((await postConfirm(second)).body.state).toBe('done');
  });
});

describe('unsubscribe links', () => {
  it('a used unsubscribe link cannot resubscribe: it only ever takes the address off', async () => {
    const { active } = await knownAddresses();
    const token = tokens.signLinkToken('unsubscribe', active.id);
    expect((await postUnsubscribe(token)).body.state).toBe('done');
    expect(await statusOf('a@example.com')).toBe('unsubscribed');
    // Used again (GET and POST): still off, and the page offers no way back but a sign-up.
    expect(await openUnsubscribe(token)).toEqual({
      status: 200,
      body: { state: 'done', email: 'a•••@example.com' },
    });
    expect((await postUnsubscribe(token)).body.state).toBe('done');
    expect(await statusOf('a@example.com')).toBe('unsubscribed');
    // Neither is the unsubscribe token a confirmation token.
    expect((await postConfirm(token)).status).toBe(400);
    expect(await statusOf('a@example.com')).toBe('unsubscribed');
    // A pending re-sign-up is also taken off by the old link (it never adds).
    await apiSubscribe({ email: 'a@example.com' });
    expect(await statusOf('a@example.com')).toBe('pending');
    await postUnsubscribe(token);
    expect(await statusOf('a@example.com')).toBe('unsubscribed');
  });

  it('never expire, and links from before issue times (in emails already sent) keep working', async () => {
    const reader = await subscribers.createSubscriber({ email: 'reader@example.com' });
    const yearsOld = tokens.signLinkToken('unsubscribe', reader.id, {
      now: Date.now() - 3 * 365 * DAY,
    });
    expect((await openUnsubscribe(yearsOld)).body.state).toBe('ask');
    const mac = crypto
      .createHmac('sha256', SECRET)
      .update(`night-shore:unsubscribe:${reader.id}`)
      .digest('base64url')
      .slice(0, 32);
    expect((await postUnsubscribe(`${reader.id}.${mac}`)).body.state).toBe('done');
    expect(await statusOf('reader@example.com')).toBe('unsubscribed');
  });
});

describe('malformed and oversized tokens', () => {
  it('answer 400 on both pages, never an error', async () => {
    for (const token of ['', 'x', '1.2', `1.${'A'.repeat(5000)}`, '99999999999999.a.b', '%00']) {
      expect((await openConfirm(token)).status).toBe(400);
      expect((await postConfirm(token)).status).toBe(400);
      expect((await openUnsubscribe(token)).status).toBe(400);
      expect((await postUnsubscribe(token)).status).toBe(400);
    }
  });
});
