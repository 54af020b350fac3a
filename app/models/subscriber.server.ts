import mongoose, { Schema } from 'mongoose';

import { SUBSCRIBER_STATUSES, type SubscriberJSON, type SubscriberStatus } from '~/types/entities';
import { escapeRegExp } from '~/utils/regexp';

import { serialIdPlugin } from './counter.server';
import { skipQueuedFor } from './mail-delivery.server';
import {
  cachedFind,
  cachedFindOne,
  defineModel,
  isDuplicateKeyError,
  iso,
} from './model-helpers.server';
import { countRecords, type RecordList, streamRecords } from './paging.server';

export type SubscriberDoc = {
  id: number;
  name: string;
  email: string;
  emailLower: string;
  status: SubscriberStatus;
  /** When the confirmation link was followed (double opt-in) or the sign-up was accepted. */
  confirmedAt?: Date;
  /**
   * When the address last became pending (a sign-up waiting for its confirmation): a
   * confirmation link issued before it answers an earlier sign-up and confirms nothing.
   */
  pendingSince?: Date;
  /** When a sign-up last emailed the address (throttles those emails, decision 029). */
  signUpMailAt?: Date;
  unsubscribedAt?: Date;
  /** The mail server's last permanent refusal, for a bounced address. */
  bounceReason?: string;
  createdAt: Date;
  updatedAt: Date;
};

const SubscriberSchema = new Schema<SubscriberDoc>(
  {
    name: { type: String, default: '' },
    email: { type: String, required: true, trim: true },
    // Emails are unique case-insensitively.
    emailLower: { type: String, required: true, unique: true },
    status: { type: String, enum: SUBSCRIBER_STATUSES, default: 'active', required: true },
    confirmedAt: Date,
    pendingSince: Date,
    signUpMailAt: Date,
    unsubscribedAt: Date,
    bounceReason: String,
  },
  { timestamps: true },
);
SubscriberSchema.plugin(serialIdPlugin, { counter: 'subscribers' });
SubscriberSchema.index({ createdAt: -1, id: -1 });
SubscriberSchema.index({ status: 1, id: 1 });
// The back office's status filter, newest first (issue 37).
SubscriberSchema.index({ status: 1, createdAt: -1, id: -1 });

export const Subscriber = defineModel<SubscriberDoc>('Subscriber', SubscriberSchema, 'subscribers');

export function toSubscriberJSON(s: SubscriberDoc): SubscriberJSON {
  return {
    id: s.id,
    name: s.name ?? '',
    email: s.email,
    status: s.status ?? 'active',
    createdAt: iso(s.createdAt),
  };
}

/**
 * Subscribers stored before statuses existed are active (they signed up and nobody could
 * leave). Run at start; idempotent, so several instances may run it at once.
 */
export async function migrateSubscriberStatuses(): Promise<number> {
  const result = await Subscriber.updateMany(
    { status: mongoose.trusted({ $exists: false }) },
    { $set: { status: 'active' } },
  );
  return result.modifiedCount;
}

export class AlreadySubscribedError extends Error {
  constructor() {
    super('This email is already subscribed to our newsletter.');
  }
}

const nameFor = (email: string, name?: string | null) =>
  name?.trim() || email.split('@')[0] || email;

/**
 * Add an address to the list (the back office, scripts, tests). A name-less subscription
 * stores the part of the email before the @ as the name (decision 003). An address already on
 * the list, in any status, is refused (AlreadySubscribedError) and nothing changes. Sign-ups
 * from the site go through `signUpSubscriber`.
 */
export async function createSubscriber(input: {
  name?: string | null;
  email: string;
  status?: 'active' | 'pending';
}): Promise<SubscriberJSON> {
  const email = input.email.trim();
  const status = input.status ?? 'active';
  const now = new Date();
  try {
    const doc = await Subscriber.create({
      name: nameFor(email, input.name),
      email,
      emailLower: email.toLowerCase(),
      status,
      ...(status === 'active' ? { confirmedAt: now } : { pendingSince: now }),
    });
    return toSubscriberJSON(doc.toObject());
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new AlreadySubscribedError();
    throw error;
  }
}

/** A pending address's confirmation link is sent again at most this often. */
export const CONFIRMATION_RESEND_INTERVAL_MS = 60 * 60 * 1000;
/** An active address is told "you are already subscribed" at most this often. */
export const ALREADY_SUBSCRIBED_NOTICE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * What a sign-up from the site did. `mail` is the email the address is owed: its
 * confirmation link, a note that it is already on the list, or none (a new address when
 * sign-ups need no confirmation, or an address a sign-up already emailed a moment ago).
 */
export type SignUpResult = {
  subscriber: SubscriberJSON;
  mail: 'confirm' | 'already-subscribed' | null;
};

/**
 * A sign-up from the site (the forms, POST /api/subscribe, the account's toggle), by
 * anybody for any address, so nothing is taken from it on trust (decision 029):
 *
 * - a new address is stored, active, or pending with a confirmation link when sign-ups must
 *   be confirmed (`doubleOptIn`);
 * - an active address stays as it is and is told it is already subscribed;
 * - a pending one stays pending and gets its confirmation link again;
 * - one that left or bounced becomes pending and needs the confirmation link, whatever
 *   `doubleOptIn` says: nobody but the address's owner can bring it back. The one exception
 *   is `ownerProven`: a member's own address, confirmed through the account's verification
 *   link (decision 030), that left the list comes back active at once (a bounced one still
 *   needs the link: it proves the address receives mail again).
 *
 * A known address's stored name and dates are not changed. The emails to a known address are
 * throttled per address (CONFIRMATION_RESEND_INTERVAL_MS, ALREADY_SUBSCRIBED_NOTICE_INTERVAL_MS)
 * with a conditional update, so several instances cannot send two at once.
 */
export async function signUpSubscriber(
  input: { name?: string | null; email: string; doubleOptIn: boolean; ownerProven?: boolean },
  now = new Date(),
): Promise<SignUpResult> {
  const email = input.email.trim();
  const emailLower = email.toLowerCase();
  // Twice at most: the address may be removed between the refused insert and the read.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const doc = await Subscriber.create({
        name: nameFor(email, input.name),
        email,
        emailLower,
        ...(input.doubleOptIn
          ? { status: 'pending', pendingSince: now, signUpMailAt: now }
          : { status: 'active', confirmedAt: now }),
      });
      return {
        subscriber: toSubscriberJSON(doc.toObject()),
        mail: input.doubleOptIn ? 'confirm' : null,
      };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const known = await Subscriber.findOne({ emailLower }).lean();
    if (known) return signUpKnown(known, now, input.ownerProven === true);
  }
  throw new Error('The address was added and removed during the sign-up');
}

async function signUpKnown(
  known: SubscriberDoc,
  now: Date,
  ownerProven: boolean,
): Promise<SignUpResult> {
  const mailDue = (intervalMs: number) => ({
    $or: [
      { signUpMailAt: mongoose.trusted({ $exists: false }) },
      { signUpMailAt: mongoose.trusted({ $lte: new Date(now.getTime() - intervalMs) }) },
    ],
  });
  const update = (filter: Record<string, unknown>, set: Partial<SubscriberDoc>) =>
    Subscriber.findOneAndUpdate(
      { id: known.id, status: known.status, ...filter },
      { $set: set },
      { returnDocument: 'after' },
    ).lean();

  if (known.status === 'active' || known.status === 'pending') {
    const active = known.status === 'active';
    const emailed = await update(
      mailDue(active ? ALREADY_SUBSCRIBED_NOTICE_INTERVAL_MS : CONFIRMATION_RESEND_INTERVAL_MS),
      { signUpMailAt: now },
    );
    return {
      subscriber: toSubscriberJSON(emailed ?? known),
      mail: emailed ? (active ? 'already-subscribed' : 'confirm') : null,
    };
  }
  if (known.status === 'unsubscribed' && ownerProven) {
    const back = await Subscriber.findOneAndUpdate(
      { id: known.id, status: 'unsubscribed' },
      { $set: { status: 'active', confirmedAt: now }, $unset: { unsubscribedAt: 1 } },
      { returnDocument: 'after' },
    ).lean();
    return { subscriber: toSubscriberJSON(back ?? known), mail: null };
  }
  // Left the list or bounced: back only through the confirmation link. Links issued before
  // now (pendingSince) belong to an earlier sign-up and confirm nothing.
  const emailed = await update(mailDue(CONFIRMATION_RESEND_INTERVAL_MS), {
    status: 'pending',
    pendingSince: now,
    signUpMailAt: now,
  });
  if (emailed) return { subscriber: toSubscriberJSON(emailed), mail: 'confirm' };
  const pending = await update({}, { status: 'pending', pendingSince: now });
  return { subscriber: toSubscriberJSON(pending ?? known), mail: null };
}

/** The list's entry for an address (any status), case-insensitively; null when never on it. */
export async function findSubscriberByEmail(email: string): Promise<SubscriberJSON | null> {
  const doc = await Subscriber.findOne({ emailLower: email.trim().toLowerCase() }).lean();
  return doc ? toSubscriberJSON(doc) : null;
}

/**
 * What following a confirmation link issued at `issuedAt` does for subscriber `id`: `ask`
 * (pending, the link answers its current sign-up), `done` (already active), `expired` (the
 * address signed up again since: a newer link was sent) or `gone` (left, bounced, removed).
 */
export type ConfirmationState = 'ask' | 'done' | 'expired' | 'gone';

function confirmationStateOf(doc: SubscriberDoc | null, issuedAt: Date): ConfirmationState {
  if (!doc || doc.status === 'unsubscribed' || doc.status === 'bounced') return 'gone';
  if (doc.status === 'active') return 'done';
  return (doc.pendingSince ?? doc.createdAt) <= issuedAt ? 'ask' : 'expired';
}

/** The confirmation page before the button: the state and the address (to mask). */
export async function getConfirmation(
  id: number,
  issuedAt: Date,
): Promise<{ state: ConfirmationState; email: string | null }> {
  const doc = await Subscriber.findOne({ id }).lean();
  return { state: confirmationStateOf(doc, issuedAt), email: doc?.email ?? null };
}

/**
 * Follow a confirmation link issued at `issuedAt`: a pending subscriber whose current
 * sign-up is not newer than the link becomes active. Anything else changes nothing; the
 * answer says why (an address that left is never re-activated by a link from before).
 */
export async function confirmSubscriber(
  id: number,
  issuedAt: Date,
): Promise<{ state: Exclude<ConfirmationState, 'ask'>; email: string | null }> {
  const doc = await Subscriber.findOneAndUpdate(
    {
      id,
      status: 'pending',
      $or: [
        { pendingSince: mongoose.trusted({ $lte: issuedAt }) },
        {
          pendingSince: mongoose.trusted({ $exists: false }),
          createdAt: mongoose.trusted({ $lte: issuedAt }),
        },
      ],
    },
    {
      $set: { status: 'active', confirmedAt: new Date() },
      $unset: { pendingSince: 1, unsubscribedAt: 1, bounceReason: 1 },
    },
    { returnDocument: 'after' },
  ).lean();
  if (doc) return { state: 'done', email: doc.email };
  const current = await Subscriber.findOne({ id }).lean();
  const state = confirmationStateOf(current, issuedAt);
  // The update was refused, so this link did nothing: never answer 'ask' (only clocks that
  // disagree could make the read say so).
  return { state: state === 'ask' ? 'expired' : state, email: current?.email ?? null };
}

/**
 * Leave the list (unsubscribe link). Null when the address is no longer on the list;
 * an address that already left stays unsubscribed (the link works twice).
 */
export async function unsubscribeSubscriber(id: number) {
  const doc = await Subscriber.findOneAndUpdate(
    { id },
    { $set: { status: 'unsubscribed', unsubscribedAt: new Date() } },
    { returnDocument: 'after' },
  ).lean();
  if (doc) await skipQueuedFor(id, 'Unsubscribed before delivery');
  return doc ? toSubscriberJSON(doc) : null;
}

/** The mail server refused the address for good (an SMTP 5xx on delivery). */
export async function markSubscriberBounced(id: number, reason: string): Promise<void> {
  await Subscriber.updateOne(
    { id, status: 'active' },
    { $set: { status: 'bounced', bounceReason: reason.slice(0, 500) } },
  );
}

/**
 * Every active subscriber, in id order (the recipients of a newsletter), streamed from a cursor
 * with a projection (index `{ status: 1, id: 1 }`): memory does not grow with the list.
 */
export function streamActiveRecipients(): AsyncIterable<{
  id: number;
  name: string;
  email: string;
}> {
  return streamRecords(Subscriber, {
    filter: { status: 'active' },
    sort: { id: 1 },
    fields: ['id', 'name', 'email'],
  });
}

/** Newest first; `q` matches name or email, case-insensitively; `status` filters. */
export async function listSubscribers(
  options: { q?: string; status?: SubscriberStatus; limit?: number } = {},
): Promise<SubscriberJSON[]> {
  const filter: Record<string, unknown> = {};
  const q = options.q?.trim();
  if (q) {
    const re = new RegExp(escapeRegExp(q), 'i');
    filter.$or = [{ name: re }, { email: re }];
  }
  if (options.status) filter.status = options.status;
  const docs = await cachedFind(Subscriber, {
    filter,
    sort: { createdAt: -1, id: -1 },
    limit: options.limit,
  });
  return docs.map(toSubscriberJSON);
}

export async function getSubscriber(id: number): Promise<SubscriberJSON | null> {
  const doc = await cachedFindOne(Subscriber, { filter: { id } });
  return doc ? toSubscriberJSON(doc) : null;
}

export async function deleteSubscriber(id: number): Promise<SubscriberJSON | null> {
  const doc = await Subscriber.findOneAndDelete({ id }).lean();
  if (doc) await skipQueuedFor(id, 'Removed from the list before delivery');
  return doc ? toSubscriberJSON(doc) : null;
}

/** All subscribers, or those with one status. */
export const countSubscribers = (status?: SubscriberStatus) =>
  countRecords(Subscriber, status ? { status } : {});

/**
 * How many active subscribers joined before `bounds[0]`, then in each range `[bounds[i],
 * bounds[i + 1])`: the dashboard's chart of a period, one count per day (issue 37). Each is a
 * range of the index `{ status: 1, createdAt: -1, id: -1 }` (an index-only count on MongoDB, two
 * searches of the sorted keys on the embedded store), so the chart costs the period's days,
 * not its sign-ups.
 */
export async function countActiveJoinsBetween(
  bounds: readonly Date[],
): Promise<{ before: number; within: number[] }> {
  const joined = (range: { $lt: Date } | { $gte: Date; $lt: Date }) =>
    countRecords(Subscriber, { status: 'active', createdAt: mongoose.trusted(range) });
  const [before, ...within] = await Promise.all([
    joined({ $lt: bounds[0] }),
    ...bounds.slice(1).map((end, i) => joined({ $gte: bounds[i], $lt: end })),
  ]);
  return { before, within };
}

/** GET /api/admin/subscribers: newest first (index `{ createdAt: -1, id: -1 }`; decision 045). */
export const subscriberList = (): RecordList<SubscriberDoc> => ({
  model: Subscriber,
  sort: { createdAt: -1, id: -1 },
  fields: ['id', 'name', 'email', 'status', 'createdAt'],
});
