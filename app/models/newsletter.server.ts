import mongoose, { Schema } from 'mongoose';

import type { NewsletterJSON, NewsletterProgressJSON, NewsletterState } from '~/types/entities';

import { serialIdPlugin } from './counter.server';
import {
  countDeliveriesByState,
  deleteDeliveriesOf,
  enqueueNewsletterDeliveries,
} from './mail-delivery.server';
import { cachedCount, cachedFind, cachedFindOne, defineModel, iso } from './model-helpers.server';
import { countRecords, streamRecords } from './paging.server';
import { countSubscribers, streamActiveRecipients } from './subscriber.server';

type NewsletterDoc = {
  id: number;
  subject: string;
  /** `{id}-{subject as a slug}`: the issue's address in the public archive. */
  slug?: string;
  content: string;
  sentAt: Date;
  sentCount: number;
  delivery: NewsletterJSON['delivery'];
  /** The site's origin when it was sent: the links in its emails point there. */
  baseUrl?: string;
  createdAt: Date;
};

const NewsletterSchema = new Schema<NewsletterDoc>(
  {
    subject: { type: String, required: true },
    slug: { type: String, index: true },
    content: { type: String, required: true },
    sentAt: { type: Date, required: true },
    sentCount: { type: Number, required: true },
    delivery: { type: String, default: 'recorded' },
    baseUrl: String,
  },
  { timestamps: true },
);
NewsletterSchema.plugin(serialIdPlugin, { counter: 'newsletters' });
NewsletterSchema.index({ createdAt: -1 });

export const Newsletter = defineModel<NewsletterDoc>('Newsletter', NewsletterSchema, 'newsletters');

export type { NewsletterJSON };

/** `{id}-{subject in lowercase words}`, e.g. `12-summer-on-the-boardwalk`. */
function slugOf(id: number, subject: string): string {
  const words = subject
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '');
  return words ? `${id}-${words}` : String(id);
}

const toJSON = (n: NewsletterDoc): NewsletterJSON => ({
  id: n.id,
  subject: n.subject,
  slug: n.slug ?? slugOf(n.id, n.subject),
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

/**
 * Send an issue: store it and queue one copy per active subscriber (the mail worker sends
 * them). `delivery` records how it goes out ('smtp' or 'outbox').
 */
export async function createNewsletterIssue(input: {
  subject: string;
  content: string;
  delivery: 'smtp' | 'outbox';
  baseUrl: string;
}): Promise<NewsletterJSON> {
  // An indexed count, then the recipients streamed into the queue in batches: tens of
  // thousands of subscribers are never in memory at once (issue 37). The count sent is what
  // was queued (a sign-up between the two counts too).
  const active = await countSubscribers('active');
  if (active === 0) throw new NoSubscribersError();
  const doc = await Newsletter.create({ ...input, sentAt: new Date(), sentCount: active });
  const slug = slugOf(doc.id, doc.subject);
  const sentCount = await enqueueNewsletterDeliveries(doc.id, streamActiveRecipients());
  await Newsletter.updateOne({ id: doc.id }, { $set: { slug, sentCount } });
  return toJSON({ ...doc.toObject(), slug, sentCount });
}

export async function listNewsletters(options: { limit?: number } = {}): Promise<NewsletterJSON[]> {
  const docs = await cachedFind(Newsletter, { sort: { createdAt: -1 }, limit: options.limit });
  return docs.map(toJSON);
}

/** The public archive: issues that were emailed (not those only recorded), newest first. */
export async function listArchivedNewsletters(): Promise<NewsletterJSON[]> {
  const docs = await cachedFind(Newsletter, {
    filter: { delivery: mongoose.trusted({ $in: ['smtp', 'outbox'] }) },
    sort: { createdAt: -1 },
  });
  return docs.map(toJSON);
}

export async function getNewsletter(id: number): Promise<NewsletterJSON | null> {
  const doc = await cachedFindOne(Newsletter, { filter: { id } });
  return doc ? toJSON(doc) : null;
}

/** An archived issue by its slug (only emailed issues are public). */
export async function getArchivedNewsletter(slug: string): Promise<NewsletterJSON | null> {
  const doc = await cachedFindOne(Newsletter, {
    filter: { slug, delivery: mongoose.trusted({ $in: ['smtp', 'outbox'] }) },
  });
  return doc ? toJSON(doc) : null;
}

export const countNewsletters = () => cachedCount(Newsletter);

/** What the mail worker needs to render an issue (not cached: read once per issue). */
export async function getNewsletterForMail(id: number) {
  const doc = await Newsletter.findOne({ id }).lean();
  return doc ? { ...toJSON(doc), baseUrl: doc.baseUrl ?? '' } : null;
}

/** Where the sending of an issue stands, counted from its copies in the mail queue. */
export async function newsletterProgress(
  newsletter: Pick<NewsletterJSON, 'id' | 'subject' | 'sentCount' | 'delivery'>,
): Promise<NewsletterProgressJSON> {
  const counts = await countDeliveriesByState(newsletter.id);
  const queued = counts.queued + counts.sending;
  const total = counts.queued + counts.sending + counts.sent + counts.failed + counts.skipped;
  let state: NewsletterState;
  if (newsletter.delivery === 'recorded') state = 'sent';
  else if (queued > 0)
    state = counts.sent + counts.failed + counts.sending > 0 ? 'sending' : 'queued';
  else state = counts.sent > 0 || counts.failed === 0 ? 'sent' : 'failed';
  return {
    id: newsletter.id,
    subject: newsletter.subject,
    state,
    total: newsletter.delivery === 'recorded' ? newsletter.sentCount : total,
    sent: newsletter.delivery === 'recorded' ? 0 : counts.sent,
    failed: counts.failed,
    queued,
    skipped: counts.skipped,
  };
}

/** Delete an issue and its copies still in the queue. */
export async function deleteNewsletter(id: number): Promise<NewsletterJSON | null> {
  const doc = await Newsletter.findOneAndDelete({ id }).lean();
  if (doc) await deleteDeliveriesOf(id);
  return doc ? toJSON(doc) : null;
}

// --- the sitemap's issues (issue 37, decision 045) ---

const ARCHIVED = () => ({ delivery: mongoose.trusted({ $in: ['smtp', 'outbox'] }) });

/** Issues in the public archive (an indexed count for the sitemap's size). */
export const countArchivedNewsletters = () => countRecords(Newsletter, ARCHIVED());

/** The archive's addresses, newest first, streamed with only what a sitemap prints. */
export async function* streamArchivedNewsletterLinks(
  slice: { skip?: number; limit?: number } = {},
): AsyncGenerator<{ slug: string; sentAt: string }> {
  const docs = streamRecords(Newsletter, {
    filter: ARCHIVED(),
    sort: { createdAt: -1, id: -1 },
    fields: ['id', 'subject', 'slug', 'sentAt'],
    ...slice,
  });
  for await (const n of docs)
    yield { slug: n.slug ?? slugOf(n.id, n.subject), sentAt: iso(n.sentAt) };
}
