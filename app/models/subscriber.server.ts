import { Schema } from 'mongoose';
import type { SubscriberJSON } from '~/types/entities';
import { serialIdPlugin } from './counter.server';
import { escapeRegExp } from '~/utils/regexp';
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
  createdAt: Date;
  updatedAt: Date;
};

const SubscriberSchema = new Schema<SubscriberDoc>(
  {
    name: { type: String, default: '' },
    email: { type: String, required: true, trim: true },
    // Emails are unique case-insensitively.
    emailLower: { type: String, required: true, unique: true },
  },
  { timestamps: true },
);
SubscriberSchema.plugin(serialIdPlugin, { counter: 'subscribers' });
SubscriberSchema.index({ createdAt: -1, id: -1 });

export const Subscriber = defineModel<SubscriberDoc>('Subscriber', SubscriberSchema, 'subscribers');

export function toSubscriberJSON(s: SubscriberDoc): SubscriberJSON {
  return { id: s.id, name: s.name ?? '', email: s.email, createdAt: iso(s.createdAt) };
}

export class AlreadySubscribedError extends Error {
  constructor() {
    super('This email is already subscribed to our newsletter.');
  }
}

/**
 * Subscribe an email. A name-less subscription (the minimal form on post pages) stores
 * the part of the email before the @ as the name (docs/decisions/003-subscriber-name.md).
 */
export async function createSubscriber(input: {
  name?: string | null;
  email: string;
}): Promise<SubscriberJSON> {
  const email = input.email.trim();
  const name = input.name?.trim() || email.split('@')[0] || email;
  try {
    const doc = await Subscriber.create({ name, email, emailLower: email.toLowerCase() });
    return toSubscriberJSON(doc.toObject());
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new AlreadySubscribedError();
    throw error;
  }
}

/** Newest first; `q` matches name or email, case-insensitively. */
export async function listSubscribers(
  options: { q?: string; limit?: number } = {},
): Promise<SubscriberJSON[]> {
  const filter: Record<string, unknown> = {};
  const q = options.q?.trim();
  if (q) {
    const re = new RegExp(escapeRegExp(q), 'i');
    filter.$or = [{ name: re }, { email: re }];
  }
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
  return doc ? toSubscriberJSON(doc) : null;
}

export const countSubscribers = () => cachedCount(Subscriber);
