import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type ParsedMail, simpleParser } from 'mailparser';
import type * as MongooseModule from 'mongoose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as TokensModule from '~/mail/tokens.server';
import type * as TransportModule from '~/mail/transport.server';
import type * as MailWorkerModule from '~/mail/worker.server';
import type * as MailDeliveryModule from '~/models/mail-delivery.server';
import type * as NewsletterModule from '~/models/newsletter.server';
import type * as NewsletterSettingsModule from '~/models/newsletter-settings.server';
import type * as SubscriberModule from '~/models/subscriber.server';
import type * as MailModule from '~/services/mail.server';

import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink';
import { setupTestDatabase } from '../helpers/test-db';

/**
 * Email delivery end to end, on the embedded store and a real SMTP server (smtp-server),
 * each message parsed with mailparser: the newsletter queue, retries, permanent failures,
 * unsubscribe links and headers, confirmations, contact notifications and the outbox.
 */
// Every link in an email starts with SITE_URL, never a request's host (decision 028).
process.env.SITE_URL = 'http://site.test';
setupTestDatabase();

let sink: SmtpSink;
let mail: typeof MailModule;
let worker: typeof MailWorkerModule;
let transport: typeof TransportModule;
let tokens: typeof TokensModule;
let subscribers: typeof SubscriberModule;
let newsletters: typeof NewsletterModule;
let deliveries: typeof MailDeliveryModule;
let settings: typeof NewsletterSettingsModule;
let mongoose: typeof MongooseModule.default;

/** What the workers logged (a database error, say): every test expects none. */
const errors: string[] = [];

/** Addresses the sink refuses: once with a 4xx, or always with a 5xx. */
const TEMPORARY = 'tempfail@example.com';
const PERMANENT = 'nobody@example.com';

beforeAll(async () => {
  sink = await startSmtpSink({
    respond: (address, attempt) => {
      if (address === TEMPORARY && attempt === 1)
        return { code: 451, message: 'Greylisted, try again later' };
      if (address === PERMANENT) return { code: 550, message: 'No such user here' };
      return null;
    },
  });
  mail = await import('~/services/mail.server');
  worker = await import('~/mail/worker.server');
  transport = await import('~/mail/transport.server');
  tokens = await import('~/mail/tokens.server');
  subscribers = await import('~/models/subscriber.server');
  newsletters = await import('~/models/newsletter.server');
  deliveries = await import('~/models/mail-delivery.server');
  settings = await import('~/models/newsletter-settings.server');
  mongoose = (await import('mongoose')).default;
});

afterAll(async () => {
  await sink?.close();
});

beforeEach(async () => {
  for (const name of ['subscribers', 'newsletters', 'mail_deliveries', 'newsletter_settings']) {
    await mongoose.connection.db?.collection(name).deleteMany({});
  }
  sink.messages.length = 0;
  sink.offers.clear();
  errors.length = 0;
});

afterEach(() => {
  expect(errors).toEqual([]);
});

function newWorker(overrides: Partial<MailWorkerModule.MailWorkerOptions> = {}) {
  return worker.createMailWorker({
    transport: transport.createMailTransport({ smtpUrl: sink.url, connections: 3 }),
    concurrency: 3,
    pollMs: 20,
    retryMs: 50,
    leaseMs: 30_000,
    maxAttempts: 4,
    ratePerMinute: 0,
    log: (message) => errors.push(message),
    ...overrides,
  });
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const left = await deliveries.MailDelivery.find({}).lean();
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(left)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Run workers until `check` holds (by default: the queue is empty), then stop them. */
async function runWorkers(
  workers: MailWorkerModule.MailWorker[],
  check: () => Promise<boolean> = deliveries.queueIsEmpty,
  what = 'the queue to empty',
) {
  for (const w of workers) w.start();
  try {
    await until(check, what);
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

/** A header's value as sent (mailparser folds List-* headers into a structure of its own). */
function header(parsed: ParsedMail, name: string): string | null {
  const line = parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line
    ? line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n\s+/g, ' ')
        .trim()
    : null;
}

describe('newsletter delivery over SMTP', () => {
  it('every active subscriber gets exactly one copy with both parts and the unsubscribe headers; a 4xx is retried, a 5xx fails', async () => {
    const active = ['ana@example.com', 'ben@example.com', 'cy@example.com', TEMPORARY, PERMANENT];
    for (const email of active) await subscribers.createSubscriber({ email });
    await subscribers.createSubscriber({ email: 'pending@example.com', status: 'pending' });
    const leaving = await subscribers.createSubscriber({ email: 'gone@example.com' });
    await subscribers.unsubscribeSubscriber(leaving.id);

    const issue = await mail.sendNewsletter({
      subject: 'Summer on the boardwalk',
      content: 'First paragraph.\n\nSecond paragraph.',
    });
    expect(issue.sentCount).toBe(5);
    await runWorkers([newWorker()]);

    const progress = await newsletters.newsletterProgress(issue);
    expect(progress).toMatchObject({ state: 'sent', total: 5, sent: 4, failed: 1, queued: 0 });

    const received = sink.messages.flatMap((m) => m.to);
    expect(received.sort()).toEqual(active.filter((a) => a !== PERMANENT).sort());
    expect(sink.offers.get(TEMPORARY)).toBe(2); // refused once (451), then delivered
    expect(sink.offers.get('pending@example.com')).toBeUndefined();
    expect(sink.offers.get('gone@example.com')).toBeUndefined();

    const all = await subscribers.listSubscribers();
    const byEmail = new Map(all.map((s) => [s.email, s]));
    for (const message of sink.messages) {
      const parsed = message.parsed!;
      const subscriber = byEmail.get(message.to[0])!;
      expect(parsed.subject).toBe('Summer on the boardwalk');
      expect(parsed.html).toContain('Second paragraph.');
      expect(parsed.text).toContain('Second paragraph.');
      expect(parsed.messageId).toMatch(/^<[0-9a-f]{24}@/);
      expect(parsed.date).toBeInstanceOf(Date);
      const listUnsubscribe = header(parsed, 'List-Unsubscribe') ?? '';
      const match = /^<http:\/\/site\.test\/unsubscribe\/([^>]+)>$/.exec(listUnsubscribe);
      expect(match, listUnsubscribe).not.toBeNull();
      expect(tokens.verifyLinkToken('unsubscribe', match![1])).toBe(subscriber.id);
      expect(header(parsed, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      // The HTML part links to the same place, and to the issue in the archive.
      expect(parsed.html).toContain(`http://site.test/unsubscribe/${match![1]}`);
      expect(parsed.html).toContain(`http://site.test/newsletter/${issue.slug}`);
    }

    const failures = await deliveries.listFailedDeliveries(issue.id);
    expect(failures).toEqual([
      { email: PERMANENT, reason: expect.stringContaining('No such user here'), attempts: 1 },
    ]);
    expect(byEmail.get(PERMANENT)?.status).toBe('bounced');
  });

  it('temporary failures stop after MAIL_MAX_ATTEMPTS with the last reply', async () => {
    await subscribers.createSubscriber({ email: TEMPORARY });
    const issue = await mail.sendNewsletter({
      subject: 'Retry me please',
      content: 'Content long enough.',
    });
    await runWorkers([newWorker({ maxAttempts: 1 })]);
    expect(await newsletters.newsletterProgress(issue)).toMatchObject({
      state: 'failed',
      failed: 1,
      sent: 0,
    });
    const [failure] = await deliveries.listFailedDeliveries(issue.id);
    expect(failure.reason).toMatch(/Gave up after 1 attempts: .*Greylisted/);
  });

  it('two workers (two app instances) share one queue and never send a copy twice', async () => {
    const emails = Array.from({ length: 120 }, (_, i) => `fan${i}@example.com`);
    for (const email of emails) await subscribers.createSubscriber({ email });
    await mail.sendNewsletter({ subject: 'Two instances', content: 'Shared queue test.' });
    await runWorkers([newWorker({ concurrency: 4 }), newWorker({ concurrency: 4 })]);
    const received = sink.messages.flatMap((m) => m.to);
    expect(received.length).toBe(120);
    expect(new Set(received).size).toBe(120);
  });

  it('MAIL_RATE_PER_MINUTE caps the pace over every worker: past the cap a copy waits for the next minute', async () => {
    for (const email of ['r1@example.com', 'r2@example.com', 'r3@example.com']) {
      await subscribers.createSubscriber({ email });
    }
    await mongoose.connection.db?.collection('mail_rate_windows').deleteMany({});
    // The cap is per clock minute: start well inside one, so the test never straddles two.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    const issue = await mail.sendNewsletter({
      subject: 'Paced issue',
      content: 'Content long enough.',
    });
    const a = newWorker({ ratePerMinute: 2, concurrency: 2 });
    const b = newWorker({ ratePerMinute: 2, concurrency: 2 });
    a.start();
    b.start();
    try {
      await until(async () => sink.messages.length === 2, 'two copies');
      await new Promise((r) => setTimeout(r, 300)); // time for a third, which must not come
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(sink.messages).toHaveLength(2);
    const progress = await newsletters.newsletterProgress(issue);
    expect(progress).toMatchObject({ sent: 2, queued: 1 });
    const waiting = await deliveries.MailDelivery.findOne({ state: 'queued' }).lean();
    // Due again when the next minute's slots open, and not counted as an attempt.
    expect(waiting?.notBefore?.getTime()).toBeGreaterThan(Date.now());
    expect(waiting?.notBefore?.getTime() ?? 0).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(waiting?.attempts).toBe(0);
  });

  it('an address that unsubscribes before its copy goes out is skipped; signing up again takes its confirmation', async () => {
    const stay = await subscribers.createSubscriber({ email: 'stay@example.com' });
    const leave = await subscribers.createSubscriber({ email: 'leave@example.com' });
    const issue = await mail.sendNewsletter({
      subject: 'Before you go',
      content: 'Content long enough.',
    });
    await subscribers.unsubscribeSubscriber(leave.id);
    await runWorkers([newWorker()]);
    expect(sink.messages.flatMap((m) => m.to)).toEqual([stay.email]);
    expect(await newsletters.newsletterProgress(issue)).toMatchObject({ sent: 1, skipped: 1 });
    // Double opt-in is off, yet the address that left is only pending until its owner
    // follows the confirmation link (decision 029).
    sink.messages.length = 0;
    const back = await mail.subscribe({ email: 'LEAVE@example.com' });
    expect(back).toEqual({ answer: 'subscribed', mustConfirm: true });
    expect(await subscribers.getSubscriber(leave.id)).toMatchObject({ status: 'pending' });
    await runWorkers([newWorker()]);
    expect(sink.messages.map((m) => m.parsed!.subject)).toEqual([
      expect.stringMatching(/Confirm your subscription/),
    ]);
  });
});

describe('confirmation and notifications', () => {
  it('with double opt-in a sign-up stays pending and gets a confirmation link that activates it', async () => {
    await settings.saveNewsletterSettings({ doubleOptIn: true });
    const { answer, mustConfirm } = await mail.subscribe({ name: 'Dee', email: 'dee@example.com' });
    expect({ answer, mustConfirm }).toEqual({ answer: 'pending', mustConfirm: true });
    const subscriber = (await subscribers.findSubscriberByEmail('dee@example.com'))!;
    expect(subscriber.status).toBe('pending');
    await runWorkers(
      [newWorker()],
      async () => sink.messages.length === 1,
      'the confirmation email',
    );
    const parsed = sink.messages[0].parsed!;
    expect(parsed.subject).toMatch(/Confirm your subscription/);
    const link = /http:\/\/site\.test\/newsletter\/confirm\/([\w.-]+)/.exec(parsed.text ?? '');
    expect(link).not.toBeNull();
    const check = tokens.checkLinkToken('confirm', link![1]);
    expect(check).toMatchObject({ ok: true, id: subscriber.id });
    // An unsubscribe token is not a confirmation token.
    expect(
      tokens.verifyLinkToken('confirm', tokens.signLinkToken('unsubscribe', subscriber.id)),
    ).toBeNull();
    expect(check.ok && (await subscribers.confirmSubscriber(check.id, check.issuedAt!))).toEqual({
      state: 'done',
      email: 'dee@example.com',
    });
    expect(await subscribers.getSubscriber(subscriber.id)).toMatchObject({ status: 'active' });
  });

  it('a contact message is emailed to CONTACT_EMAIL with Reply-To the sender', async () => {
    const { env } = await import('~/platform/env.server');
    await mail.notifyContactMessage({
      id: 7,
      name: 'Promoter Pat',
      email: 'pat@venue.example',
      subject: 'Booking Inquiry',
      message: 'Can you play on Friday?',
      createdAt: new Date().toISOString(),
    });
    await runWorkers([newWorker()], async () => sink.messages.length === 1, 'the notification');
    const { parsed, to } = sink.messages[0];
    expect(to).toEqual([env.CONTACT_EMAIL]);
    expect(parsed!.replyTo?.value[0]).toMatchObject({
      address: 'pat@venue.example',
      name: 'Promoter Pat',
    });
    expect(parsed!.text).toContain('Can you play on Friday?');
    expect(parsed!.text).toContain('http://site.test/admin/messages/7');
  });

  it('without SMTP_URL every message is written whole to the outbox folder as .eml', async () => {
    const outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-outbox-'));
    await subscribers.createSubscriber({ email: 'reader@example.com' });
    await mail.sendNewsletter({ subject: 'To the outbox', content: 'Written to disk.' });
    await runWorkers([newWorker({ transport: transport.createMailTransport({ outbox }) })]);
    const files = fs.readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const parsed = await simpleParser(fs.readFileSync(path.join(outbox, files[0])));
    expect(parsed.subject).toBe('To the outbox');
    expect(parsed.to).toMatchObject({ value: [{ address: 'reader@example.com' }] });
    expect(header(parsed, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    fs.rmSync(outbox, { recursive: true, force: true });
  });
});
