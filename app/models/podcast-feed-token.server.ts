import crypto from 'node:crypto';

import { Schema } from 'mongoose';

import { defineModel } from './model-helpers.server';

/**
 * A member's private podcast feed (decision 037): at most one live token per member.
 *
 * - The token itself (32 random bytes, base64url) is shown once and never stored: the
 *   collection keeps its SHA-256, looked up by a unique index, so an unknown token costs
 *   the same one indexed read as a known one.
 * - `_id` is a separate random id, not secret, that the signed enclosure URLs carry: every
 *   media request checks that it still exists, so revoking (deleting the document) stops the
 *   feed and every URL it ever handed out.
 */
type FeedTokenDoc = { _id: string; userId: number; hash: string; createdAt: Date };

const FeedTokenSchema = new Schema<FeedTokenDoc>(
  {
    _id: String,
    userId: { type: Number, required: true, unique: true },
    hash: { type: String, required: true, unique: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export const PodcastFeedToken = defineModel<FeedTokenDoc>(
  'PodcastFeedToken',
  FeedTokenSchema,
  'podcast_feed_tokens',
);

export type FeedToken = { id: string; userId: number; createdAt: string };

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

const toFeedToken = (d: FeedTokenDoc): FeedToken => ({
  id: d._id,
  userId: d.userId,
  createdAt: new Date(d.createdAt).toISOString(),
});

/**
 * A new private feed token for the member; any earlier one is revoked first (regenerating
 * revokes). Returns the token in clear, for this answer only.
 */
export async function createFeedToken(userId: number): Promise<{ token: string; feed: FeedToken }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const doc: FeedTokenDoc = {
    _id: crypto.randomBytes(12).toString('base64url'),
    userId,
    hash: hashToken(token),
    createdAt: new Date(),
  };
  await PodcastFeedToken.deleteMany({ userId }).exec();
  await PodcastFeedToken.create(doc);
  return { token, feed: toFeedToken(doc) };
}

/** The member's live token (without its secret), or null. */
export async function getFeedTokenOfUser(userId: number): Promise<FeedToken | null> {
  const doc = await PodcastFeedToken.findOne({ userId }).lean().exec();
  return doc ? toFeedToken(doc) : null;
}

/** The token a feed URL carries, by its hash; null when unknown or revoked. */
export async function findFeedToken(token: string): Promise<FeedToken | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const doc = await PodcastFeedToken.findOne({ hash: hashToken(token) })
    .lean()
    .exec();
  return doc ? toFeedToken(doc) : null;
}

/** The token a signed media URL names, by its id; null when revoked. */
export async function getFeedTokenById(id: string): Promise<FeedToken | null> {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(id)) return null;
  const doc = await PodcastFeedToken.findById(id).lean().exec();
  return doc ? toFeedToken(doc) : null;
}

/** Revoke the member's private feed (and every signed URL it handed out). */
export async function revokeFeedTokens(userId: number): Promise<boolean> {
  const { deletedCount } = await PodcastFeedToken.deleteMany({ userId }).exec();
  return deletedCount > 0;
}
