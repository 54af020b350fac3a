import mongoose, { Schema } from 'mongoose';
import { SUBSCRIBER_STATUSES, type SubscriberJSON, type SubscriberStatus } from '~/types/entities';
import { serialIdPlugin } from './counter.server';
import { escapeRegExp } from '~/utils/regexp';
import { skipQueuedFor } from './mail-delivery.server';
import {
  cachedCount,
  cachedFind,
  cachedFindOne,
  defineModel,
  isDuplicateKeyError,
  iso,
} from './model-helpers.server';

type SubscriberDoc = {
  id: number;
  name: string;
  email: string;
  emailLower: string;
  status: SubscriberStatus;
  /** When the confirmation link was followed (double opt-in) or the sign-up was accepted. */
  confirmedAt?: Date;
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
    unsubscribedAt: Date,
    bounceReason: String,
  },
  { timestamps: true },
);
SubscriberSchema.plugin(serialIdPlugin, { counter: 'subscribers' });
SubscriberSchema.index({ createdAt: -1, id: -1 });
SubscriberSchema.index({ status: 1, id: 1 });

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

/**
 * Subscribe an email. A name-less subscription (the minimal form on post pages) stores
 * the part of the email before the @ as the name (docs/decisions/003-subscriber-name.md).
 *
 * `status` is 'active', or 'pending' when sign-ups must be confirmed (double opt-in). An
 * address that is on the list but not active (pending, unsubscribed, bounced) signs up
 * again: it takes the new status. An active address is refused (AlreadySubscribedError).
 */
export async function createSubscriber(input: {
  name?: string | null;
  email: string;
  status?: 'active' | 'pending';
}): Promise<SubscriberJSON> {
  const email = input.email.trim();
  const name = input.name?.trim() || email.split('@')[0] || email;
  const status = input.status ?? 'active';
  const confirmed = status === 'active' ? { confirmedAt: new Date() } : {};
  try {
    const doc = await Subscriber.create({
      name,
      email,
      emailLower: email.toLowerCase(),
      status,
      ...confirmed,
    });
    return toSubscriberJSON(doc.toObject());
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const again = await Subscriber.findOneAndUpdate(
    { emailLower: email.toLowerCase(), status: mongoose.trusted({ $ne: 'active' }) },
    {
      $set: { status, ...confirmed, ...(input.name?.trim() ? { name } : {}) },
      $unset: { unsubscribedAt: 1, bounceReason: 1 },
    },
    { returnDocument: 'after' },
  ).lean();
  if (!again) throw new AlreadySubscribedError();
  return toSubscriberJSON(again);
}

/** The list's entry for an address (any status), case-insensitively; null when never on it. */
export async function findSubscriberByEmail(email: string): Promise<SubscriberJSON | null> {
  const doc = await Subscriber.findOne({ emailLower: email.trim().toLowerCase() }).lean();
  return doc ? toSubscriberJSON(doc) : null;
}

/** When each subscriber still on the list (active) joined, oldest first. */
export async function activeSubscriberJoinDates(): Promise<Date[]> {
  const docs = await Subscriber.find({ status: 'active' }, { createdAt: 1, _id: 0 })
    .sort({ createdAt: 1 })
    .lean();
  return docs.map((d) => d.createdAt);
}

/** Follow a confirmation link: a pending subscriber becomes active. Null when gone. */
export async function confirmSubscriber(id: number) {
  const doc = await Subscriber.findOneAndUpdate(
    { id, status: mongoose.trusted({ $in: ['pending', 'active'] }) },
    { $set: { status: 'active', confirmedAt: new Date() } },
    { returnDocument: 'after' },
  ).lean();
  return doc ? toSubscriberJSON(doc) : null;
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

/** Every active subscriber, in id order (the recipients of a newsletter). */
export async function listActiveRecipients(): Promise<
  { id: number; name: string; email: string }[]
> {
  return Subscriber.find({ status: 'active' }, { id: 1, name: 1, email: 1, _id: 0 })
    .sort({ id: 1 })
    .lean<{ id: number; name: string; email: string }[]>();
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
  cachedCount(Subscriber, status ? { status } : {});
