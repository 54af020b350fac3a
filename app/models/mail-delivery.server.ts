import mongoose, { Schema, type Types } from 'mongoose';

import { defineModel } from './model-helpers.server';

/**
 * The outgoing mail queue (docs/decisions/016-email-delivery.md): one document per message
 * and recipient, in MongoDB, so a send survives a crash and several app instances share it.
 *
 * - `queued`: waiting until `notBefore` (now, or the next retry).
 * - `sending`: claimed by one instance (`claimedBy`) until `notBefore` (the lease). An
 *   instance that dies leaves it there; once the lease has passed any instance claims it
 *   again (so a message in flight at a crash may go out twice; never zero times).
 * - `sent`, `failed`: done. `skipped`: the subscriber left before their copy went out.
 *
 * Only queued and sending deliveries have a `notBefore`: a finished one loses it. So the
 * claim is "the oldest `notBefore` that is due", one step down an index however many
 * messages were sent before (on MongoDB and on the embedded store alike).
 *
 * A newsletter delivery names its issue and subscriber (the message is rendered per issue);
 * any other message carries its own subject and parts.
 */
export const DELIVERY_STATES = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export type DeliveryDoc = {
  _id: Types.ObjectId;
  kind: 'newsletter' | 'message';
  newsletterId?: number;
  subscriberId?: number;
  to: string;
  toName?: string;
  subject?: string;
  html?: string;
  text?: string;
  replyTo?: string;
  /** What the message is, for the log and the admin (e.g. 'contact', 'confirm'). */
  purpose?: string;
  state: DeliveryState;
  attempts: number;
  /** Set while queued or sending (see above); absent once finished. */
  notBefore?: Date;
  claimedBy?: string;
  lastError?: string;
  sentAt?: Date;
  createdAt: Date;
};

const DeliverySchema = new Schema<DeliveryDoc>(
  {
    kind: { type: String, enum: ['newsletter', 'message'], required: true },
    newsletterId: Number,
    subscriberId: Number,
    to: { type: String, required: true },
    toName: String,
    subject: String,
    html: String,
    text: String,
    replyTo: String,
    purpose: String,
    state: { type: String, enum: DELIVERY_STATES, required: true, default: 'queued' },
    attempts: { type: Number, required: true, default: 0 },
    notBefore: Date,
    claimedBy: String,
    lastError: String,
    sentAt: Date,
  },
  { timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
// What the workers claim: the due ones, oldest first. Finished ones have no notBefore, so a
// range on dates never visits them.
DeliverySchema.index({ notBefore: 1 });
// Skipping a subscriber's copies when they leave.
DeliverySchema.index({ subscriberId: 1, state: 1 });
// Progress of an issue, and one copy per subscriber and issue.
DeliverySchema.index(
  { newsletterId: 1, subscriberId: 1 },
  { unique: true, partialFilterExpression: { kind: 'newsletter' } },
);
DeliverySchema.index({ newsletterId: 1, state: 1 });

export const MailDelivery = defineModel<DeliveryDoc>(
  'MailDelivery',
  DeliverySchema,
  'mail_deliveries',
);

/** One message to one address, queued to go out now. */
export async function enqueueMessage(message: {
  to: string;
  toName?: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string;
  purpose: string;
}): Promise<string> {
  const doc = await MailDelivery.create({
    kind: 'message',
    ...message,
    state: 'queued',
    attempts: 0,
    notBefore: new Date(),
  });
  return String(doc._id);
}

/**
 * A newsletter's copies, one per recipient, inserted in batches. Safe to run twice for
 * the same issue: a recipient who already has a copy keeps that one (unique index). The recipients
 * are read as they come (a stream); returns how many were given to the queue.
 */
export async function enqueueNewsletterDeliveries(
  newsletterId: number,
  recipients: AsyncIterable<{ id: number; name: string; email: string }>,
): Promise<number> {
  const now = new Date();
  const BATCH = 1000;
  let batch: { id: number; name: string; email: string }[] = [];
  let queued = 0;
  const flush = async () => {
    const docs = batch.map((r) => ({
      kind: 'newsletter' as const,
      newsletterId,
      subscriberId: r.id,
      to: r.email,
      toName: r.name,
      state: 'queued' as const,
      attempts: 0,
      notBefore: now,
      createdAt: now,
    }));
    queued += batch.length;
    batch = [];
    try {
      await MailDelivery.insertMany(docs, { ordered: false });
    } catch (error) {
      // Duplicates (a repeated call) are fine; anything else is not.
      const writeErrors = (error as { writeErrors?: { code?: number }[] }).writeErrors;
      if (!writeErrors || writeErrors.some((e) => e.code !== 11000)) throw error;
    }
  };
  for await (const recipient of recipients) {
    batch.push(recipient);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return queued;
}

/**
 * Claim the oldest due delivery for `workerId`, atomically: two instances never hold the
 * same one. A delivery whose lease ran out (its instance died) is due again.
 */
export async function claimDelivery(
  workerId: string,
  leaseMs: number,
  now = new Date(),
): Promise<DeliveryDoc | null> {
  return MailDelivery.findOneAndUpdate(
    {
      state: mongoose.trusted({ $in: ['queued', 'sending'] }),
      notBefore: mongoose.trusted({ $lte: now }),
    },
    {
      $set: { state: 'sending', claimedBy: workerId, notBefore: new Date(now.getTime() + leaseMs) },
      $inc: { attempts: 1 },
    },
    { sort: { notBefore: 1 }, returnDocument: 'after' },
  ).lean<DeliveryDoc>();
}

/** Finish a claimed delivery; only the instance that holds the claim can. */
async function finish(id: Types.ObjectId, workerId: string, set: Partial<DeliveryDoc>) {
  await MailDelivery.updateOne(
    { _id: id, state: 'sending', claimedBy: workerId },
    { $set: set, $unset: { claimedBy: 1, notBefore: 1 } },
  );
}

export const markDeliverySent = (id: Types.ObjectId, workerId: string) =>
  finish(id, workerId, { state: 'sent', sentAt: new Date() });

export const markDeliveryFailed = (id: Types.ObjectId, workerId: string, reason: string) =>
  finish(id, workerId, { state: 'failed', lastError: reason.slice(0, 1000) });

export const markDeliverySkipped = (id: Types.ObjectId, workerId: string, reason: string) =>
  finish(id, workerId, { state: 'skipped', lastError: reason.slice(0, 1000) });

/** A temporary failure: queued again, due at `at`. */
export async function markDeliveryRetry(
  id: Types.ObjectId,
  workerId: string,
  reason: string,
  at: Date,
): Promise<void> {
  await MailDelivery.updateOne(
    { _id: id, state: 'sending', claimedBy: workerId },
    {
      $set: { state: 'queued', notBefore: at, lastError: reason.slice(0, 1000) },
      $unset: { claimedBy: 1 },
    },
  );
}

/** Give a claim back untouched (no slot under MAIL_RATE_PER_MINUTE): due again at `at`. */
export async function releaseDelivery(id: Types.ObjectId, workerId: string, at: Date) {
  await MailDelivery.updateOne(
    { _id: id, state: 'sending', claimedBy: workerId },
    { $set: { state: 'queued', notBefore: at }, $unset: { claimedBy: 1 }, $inc: { attempts: -1 } },
  );
}

/** A subscriber left: their copies not sent yet are skipped. */
export async function skipQueuedFor(subscriberId: number, reason: string): Promise<number> {
  const result = await MailDelivery.updateMany(
    { kind: 'newsletter', subscriberId, state: 'queued' },
    { $set: { state: 'skipped', lastError: reason }, $unset: { notBefore: 1 } },
  );
  return result.modifiedCount;
}

/** How many of an issue's copies are in each state. */
export async function countDeliveriesByState(
  newsletterId: number,
): Promise<Record<DeliveryState, number>> {
  const counts: Record<DeliveryState, number> = {
    queued: 0,
    sending: 0,
    sent: 0,
    failed: 0,
    skipped: 0,
  };
  const rows = await MailDelivery.aggregate<{ _id: DeliveryState; n: number }>([
    { $match: { newsletterId } },
    { $group: { _id: '$state', n: { $sum: 1 } } },
  ]);
  for (const row of rows) counts[row._id] = row.n;
  return counts;
}

/** An issue's failed copies: address and the server's reply, newest first. */
export async function listFailedDeliveries(newsletterId: number, limit = 500) {
  const docs = await MailDelivery.find(
    { newsletterId, state: 'failed' },
    { to: 1, lastError: 1, attempts: 1 },
  )
    .sort({ _id: -1 })
    .limit(limit)
    .lean();
  return docs.map((d) => ({
    email: d.to,
    reason: d.lastError ?? '',
    attempts: d.attempts,
  }));
}

/** True when no message is waiting or in flight (tests and the benchmark wait for it). */
export async function queueIsEmpty(): Promise<boolean> {
  const next = await MailDelivery.findOne(
    { notBefore: mongoose.trusted({ $gte: new Date(0) }) },
    { _id: 1 },
  ).lean();
  return next === null;
}

/** Remove an issue's copies (the issue is deleted; queued copies never go out). */
export async function deleteDeliveriesOf(newsletterId: number): Promise<void> {
  await MailDelivery.deleteMany({ kind: 'newsletter', newsletterId });
}

type RateWindowDoc = { _id: string; count: number; expiresAt: Date };
const RateWindowSchema = new Schema<RateWindowDoc>(
  { _id: String, count: Number, expiresAt: Date },
  { versionKey: false },
);
RateWindowSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
const MailRateWindow = defineModel<RateWindowDoc>(
  'MailRateWindow',
  RateWindowSchema,
  'mail_rate_windows',
);

/**
 * MAIL_RATE_PER_MINUTE over every instance: take one of this minute's slots. Answers 0
 * when one was free, else how many milliseconds until the next minute's slots open.
 */
export async function takeRateSlot(perMinute: number, now = Date.now()): Promise<number> {
  const minute = Math.floor(now / 60_000);
  const window = await MailRateWindow.findOneAndUpdate(
    { _id: `minute-${minute}` },
    { $inc: { count: 1 }, $setOnInsert: { expiresAt: new Date((minute + 2) * 60_000) } },
    { upsert: true, returnDocument: 'after' },
  ).lean();
  if (window && window.count <= perMinute) return 0;
  return (minute + 1) * 60_000 - now;
}
