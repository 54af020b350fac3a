import { type EmbeddedMongo, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as ContactMessageModule from '~/models/contact-message.server';
import type * as SubscriberModule from '~/models/subscriber.server';
import type * as DbModule from '~/platform/db.server';

import type * as PublicFormsModule from './public-forms.server';

let store: EmbeddedMongo;
let forms: typeof PublicFormsModule;
let subscribers: typeof SubscriberModule;
let messages: typeof ContactMessageModule;
let db: typeof DbModule;

const fd = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

beforeAll(async () => {
  process.env.SEED = 'false';
  store = await startEmbeddedMongo();
  db = await import('~/platform/db.server');
  await db.connectDb({ uri: store.uri, dbName: 'public-forms-test' });
  forms = await import('./public-forms.server');
  subscribers = await import('~/models/subscriber.server');
  messages = await import('~/models/contact-message.server');
});

afterAll(async () => {
  await db.disconnectDb();
  await store.stop();
});

const errorsOf = (outcome: Awaited<ReturnType<typeof forms.handleSubscribe>>) =>
  outcome.ok ? null : outcome.result.error;

describe('handleSubscribe', () => {
  it("validates with the site's messages", async () => {
    const outcome = await forms.handleSubscribe(fd({ name: 'A', email: 'nope' }), 'full');
    expect(outcome.ok).toBe(false);
    expect(errorsOf(outcome)).toMatchObject({
      email: ['Please enter a valid email address.'],
      privacy: ['You must agree to receive emails.'],
    });
    const noName = await forms.handleSubscribe(
      fd({ email: 'x@example.com', privacy: 'on' }),
      'full',
    );
    expect(errorsOf(noName)).toMatchObject({ name: ['Name is required'] });
  });

  it('stores the full form with its name, and the minimal one with the email local part', async () => {
    expect(
      await forms.handleSubscribe(
        fd({ name: 'Ada', email: 'ada@example.com', privacy: 'on' }),
        'full',
      ),
    ).toEqual({ ok: true, stored: true, mustConfirm: false });
    expect(
      await forms.handleSubscribe(fd({ email: 'dj.nova@example.com', privacy: 'on' }), 'minimal'),
    ).toEqual({ ok: true, stored: true, mustConfirm: false });
    const list = await subscribers.listSubscribers();
    expect(list.find((s) => s.email === 'ada@example.com')?.name).toBe('Ada');
    expect(list.find((s) => s.email === 'dj.nova@example.com')?.name).toBe('dj.nova');
  });

  it('answers a known address (any case) as a new one, and changes nothing stored', async () => {
    const before = await subscribers.listSubscribers();
    const outcome = await forms.handleSubscribe(
      fd({ name: 'Ada again', email: 'ADA@example.com', privacy: 'on' }),
      'full',
    );
    expect(outcome).toEqual({ ok: true, stored: true, mustConfirm: false });
    expect(await subscribers.listSubscribers()).toEqual(before);
  });

  it('a known address that left is answered alike and stays off the list until it confirms', async () => {
    const ada = (await subscribers.findSubscriberByEmail('ada@example.com'))!;
    await subscribers.unsubscribeSubscriber(ada.id);
    const outcome = await forms.handleSubscribe(
      fd({ name: 'Ada', email: 'ada@example.com', privacy: 'on' }),
      'full',
    );
    expect(outcome).toEqual({ ok: true, stored: true, mustConfirm: false });
    expect(await subscribers.getSubscriber(ada.id)).toMatchObject({ status: 'pending' });
  });

  it('answers a filled honeypot as a success and stores nothing', async () => {
    const before = await subscribers.countSubscribers();
    const outcome = await forms.handleSubscribe(
      fd({ name: 'Bot', email: 'bot@example.com', privacy: 'on', website: 'http://spam' }),
      'full',
    );
    expect(outcome.ok).toBe(true);
    expect(await subscribers.countSubscribers()).toBe(before);
  });
});

describe('handleContact', () => {
  const valid = {
    name: 'Sam',
    email: 'sam@example.com',
    subject: 'Booking Inquiry',
    message: 'We would love to book you for a summer party.',
  };

  it('stores a valid message', async () => {
    expect(await forms.handleContact(fd(valid))).toEqual({ ok: true, stored: true });
    expect((await messages.listContactMessages())[0]).toMatchObject(valid);
  });

  it('rejects a subject outside the four options and a missing name', async () => {
    const outcome = await forms.handleContact(fd({ ...valid, name: ' ', subject: 'Spam' }));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.status).toBe(400);
    expect(outcome.result.error).toMatchObject({
      name: ['Name is required'],
      subject: ['Please choose a subject'],
    });
  });

  it('answers a filled honeypot as a success and stores nothing', async () => {
    const before = await messages.countContactMessages();
    expect(await forms.handleContact(fd({ ...valid, website: 'x' }))).toEqual({
      ok: true,
      stored: false,
    });
    expect(await messages.countContactMessages()).toBe(before);
  });
});
