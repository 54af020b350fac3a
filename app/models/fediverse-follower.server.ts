import mongoose, { Schema } from 'mongoose';

import { escapeRegExp } from '~/utils/regexp';

import { nextId } from './counter.server';
import { defineModel } from './model-helpers.server';
import {
  countRecords,
  findKeysetPage,
  findNumberedPage,
  type NumberedPage,
  type PageSort,
} from './paging.server';

/**
 * The site actor's followers (docs/fediverse.md, decision 053): one document per remote actor
 * whose signed `Follow` was accepted. `actorId` is the actor's URI (unique); `inbox` and
 * `sharedInbox` are where deliveries go; `followId` is their Follow activity's id, which their
 * `Undo` names. `host` (the actor's host name, lowercase, no port) serves the per-domain block. Remote text
 * (`name`, `handle`) is stored as plain text, at most 200 characters, and is only ever printed
 * escaped (React text).
 */
export type FollowerDoc = {
  id: number;
  actorId: string;
  host: string;
  inbox: string;
  sharedInbox?: string;
  handle?: string;
  name?: string;
  followId?: string;
  createdAt: Date;
};

const FollowerSchema = new Schema<FollowerDoc>(
  {
    id: { type: Number, required: true, unique: true },
    actorId: { type: String, required: true, unique: true },
    host: { type: String, required: true },
    inbox: { type: String, required: true },
    sharedInbox: String,
    handle: String,
    name: String,
    followId: String,
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
/** The admin's list: newest first. */
const ADMIN_SORT: PageSort = { createdAt: -1, id: -1 };
/** Deliveries walk the followers in `id` order (a keyset cursor). */
const DELIVERY_SORT: PageSort = { id: 1 };
FollowerSchema.index(ADMIN_SORT);
// Blocking a domain removes its follows.
FollowerSchema.index({ host: 1, id: 1 });

export const FediverseFollower = defineModel<FollowerDoc>(
  'FediverseFollower',
  FollowerSchema,
  'fediverse_followers',
);

/** Remote text as one plain line: control characters become spaces, at most 200 characters. */
const clip = (text: string | null | undefined) =>
  text
    ? [...text]
        .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c))
        .join('')
        .slice(0, 200)
    : undefined;

export type NewFollower = {
  actorId: string;
  inbox: string;
  sharedInbox?: string | null;
  handle?: string | null;
  name?: string | null;
  followId?: string | null;
};

/** Record (or refresh) a follower; answers true when it is a new one. */
export async function addFollower(follower: NewFollower): Promise<boolean> {
  const host = new URL(follower.actorId).hostname.toLowerCase();
  const fields = {
    host,
    inbox: follower.inbox,
    sharedInbox: follower.sharedInbox ?? undefined,
    handle: clip(follower.handle),
    name: clip(follower.name),
    followId: follower.followId ?? undefined,
  };
  const existing = await FediverseFollower.findOneAndUpdate(
    { actorId: follower.actorId },
    { $set: fields },
  ).lean();
  if (existing) return false;
  try {
    await FediverseFollower.create({
      id: await nextId('fediverse_followers'),
      actorId: follower.actorId,
      ...fields,
      createdAt: new Date(),
    });
    return true;
  } catch (error) {
    // The same Follow arrived twice at once: one of them recorded it.
    if ((error as { code?: number }).code === 11000) return false;
    throw error;
  }
}

/** Remove a follower (their Undo, or the admin's block); true when there was one. */
export async function removeFollower(actorId: string): Promise<boolean> {
  const result = await FediverseFollower.deleteOne({ actorId });
  return result.deletedCount > 0;
}

/** Remove every follower of a domain and its subdomains (it was blocked); answers how many. */
export async function removeFollowersOfHost(domain: string): Promise<number> {
  const host = domain.toLowerCase();
  const result = await FediverseFollower.deleteMany(
    mongoose.trusted({
      $or: [{ host }, { host: mongoose.trusted({ $regex: `\\.${escapeRegExp(host)}$` }) }],
    }),
  );
  return result.deletedCount;
}

export const countFollowers = () => countRecords(FediverseFollower);

/** A page of the admin's list, newest first. */
export function listFollowersPage(page: number, perPage = 50): Promise<NumberedPage<FollowerDoc>> {
  return findNumberedPage(FediverseFollower, {
    sort: ADMIN_SORT,
    page,
    perPage,
    fields: ['id', 'actorId', 'host', 'handle', 'name', 'createdAt'],
  });
}

/** Followers for delivery, `limit` at a time after `cursor` (null: from the first). */
export function followersForDelivery(cursor: string | null, limit = 100) {
  return findKeysetPage(FediverseFollower, {
    sort: DELIVERY_SORT,
    cursor,
    limit,
    fields: ['id', 'actorId', 'inbox', 'sharedInbox'],
  });
}

/** Test helper: whether this actor follows (tests wait for it). */
export async function isFollower(actorId: string): Promise<boolean> {
  return (await FediverseFollower.exists({ actorId })) !== null;
}

/** True when `followId` is the Follow this actor follows with (their Undo names it). */
export async function isFollowOf(actorId: string, followId: string): Promise<boolean> {
  return (await FediverseFollower.exists({ actorId, followId })) !== null;
}
