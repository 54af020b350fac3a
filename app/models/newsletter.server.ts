import { Schema } from 'mongoose';
import { serialIdPlugin } from './counter.server';
import { cachedCount, cachedFind, defineModel, iso } from './model-helpers.server';
import { Subscriber } from './subscriber.server';
import type { NewsletterJSON } from '~/types/entities';

type NewsletterDoc = {
  id: number;
  subject: string;
  content: string;
  sentAt: Date;
  sentCount: number;
  /** 'recorded': stored, not mailed (no mail transport is configured yet). */
  delivery: 'recorded';
  createdAt: Date;
};

const NewsletterSchema = new Schema<NewsletterDoc>(
  {
    subject: { type: String, required: true },
    content: { type: String, required: true },
    sentAt: { type: Date, required: true },
    sentCount: { type: Number, required: true },
    delivery: { type: String, default: 'recorded' },
  },
  { timestamps: true },
);
NewsletterSchema.plugin(serialIdPlugin, { counter: 'newsletters' });
NewsletterSchema.index({ createdAt: -1 });

export const Newsletter = defineModel<NewsletterDoc>('Newsletter', NewsletterSchema, 'newsletters');

export type { NewsletterJSON };

const toJSON = (n: NewsletterDoc): NewsletterJSON => ({
  id: n.id,
  subject: n.subject,
  content: n.content,
  sentAt: iso(n.sentAt),
  sentCount: n.sentCount,
  delivery: n.delivery,
  createdAt: iso(n.createdAt),
});

export class NoSubscribersError extends Error {
  constructor() {
    super('There are no subscribers to send the newsletter to.');
  }
}

/** Record a newsletter issue addressed to every current subscriber. */
export async function recordNewsletter(input: {
  subject: string;
  content: string;
}): Promise<NewsletterJSON> {
  const sentCount = await Subscriber.countDocuments();
  if (sentCount === 0) throw new NoSubscribersError();
  const doc = await Newsletter.create({
    ...input,
    sentAt: new Date(),
    sentCount,
    delivery: 'recorded',
  });
  return toJSON(doc.toObject());
}

export async function listNewsletters(options: { limit?: number } = {}): Promise<NewsletterJSON[]> {
  const docs = await cachedFind(Newsletter, { sort: { createdAt: -1 }, limit: options.limit });
  return docs.map(toJSON);
}
export const countNewsletters = () => cachedCount(Newsletter);
