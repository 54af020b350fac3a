import mongoose, { Schema } from 'mongoose';

import { serialIdPlugin } from './counter.server';
import { defineModel, isDuplicateKeyError } from './model-helpers.server';
import { countRecords, findKeysetPage, type KeysetPage } from './paging.server';

/**
 * The publication ledger (issue 40, decision 054): what the site has sent to the fediverse for
 * each track, post and show, so that every item is federated exactly once (a `Create`), then an
 * `Update` only when its rendering changed, and a `Delete` when it is deleted or stops being
 * public, even with several instances saving and sweeping at once.
 *
 * One document per item (`key` = `track:12`, unique). Every send is a compare-and-set on `seq`:
 * the instance whose `transition` matches the `seq` it read sends the activity; another that read
 * the same `seq` loses and looks again. The first `Create` is an insert of the unique key (the
 * loser gets a duplicate key). A document records the send as `unsent` until it went to the
 * delivery queue: a crash in between leaves it due (`dueAt`), and the sweep sends it again.
 *
 * - `waiting`: nothing sent yet; due at `dueAt` (the early-access day's midnight, or soon when
 *   the track's stream is still being made).
 * - `published`: the object is out (`Create`, then perhaps `Update`s).
 * - `withdrawn`: a `Delete` went out; its ids answer 410 with a Tombstone. If the item turns
 *   public again it is published under a new id (`generation` + 1): Mastodon keeps a deleted
 *   status's id as a tombstone and would ignore a second `Create` of it.
 */
export const PUBLICATION_KINDS = ['track', 'post', 'show'] as const;
export type PublicationKind = (typeof PUBLICATION_KINDS)[number];
export const PUBLICATION_STATES = ['waiting', 'published', 'withdrawn'] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];
export type PublicationVerb = 'Create' | 'Update' | 'Delete';

export type PublicationDoc = {
  id: number;
  key: string;
  kind: PublicationKind;
  itemId: number;
  state: PublicationState;
  /** The object's id as sent, a path on the site (`/music/12`, `/blog/a#v2`); null while waiting. */
  objectId: string | null;
  /** Every page path an id of this item was built on (tombstones are looked up by path). */
  paths: string[];
  generation: number;
  /** sha256 of the rendering last sent. */
  digest: string | null;
  seq: number;
  /** The `seq` of this generation's `Create` (the outbox gives the same activity id). */
  createSeq: number;
  lastVerb: PublicationVerb | null;
  /** When this generation's `Create` went out: the outbox's order. */
  publishedAt: Date | null;
  withdrawnAt: Date | null;
  /** The ActivityStreams type of the object (a Tombstone's `formerType`). */
  objectType: string | null;
  /** The last activity is recorded but not yet handed to the delivery queue. */
  unsent: boolean;
  /** When the sweep should look at this item again; null: not before the next save. */
  dueAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const PublicationSchema = new Schema<PublicationDoc>(
  {
    key: { type: String, required: true, unique: true },
    kind: { type: String, enum: PUBLICATION_KINDS, required: true },
    itemId: { type: Number, required: true },
    state: { type: String, enum: PUBLICATION_STATES, required: true },
    objectId: { type: String, default: null },
    paths: { type: [String], default: [] },
    generation: { type: Number, required: true, default: 0 },
    digest: { type: String, default: null },
    seq: { type: Number, required: true, default: 0 },
    createSeq: { type: Number, default: 0 },
    lastVerb: { type: String, default: null },
    publishedAt: { type: Date, default: null },
    withdrawnAt: { type: Date, default: null },
    objectType: { type: String, default: null },
    unsent: { type: Boolean, default: false },
    dueAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
PublicationSchema.plugin(serialIdPlugin, { counter: 'fediverse_publications' });
// The outbox: published items, newest publication first.
PublicationSchema.index({ state: 1, publishedAt: -1, id: -1 });
// The sweep: what is due.
PublicationSchema.index({ dueAt: 1 });
// Tombstones and the object dispatchers: which item an id's path was built on.
PublicationSchema.index({ paths: 1 });

export const Publication = defineModel<PublicationDoc>(
  'FediversePublication',
  PublicationSchema,
  'fediverse_publications',
);

export const publicationKey = (kind: PublicationKind, itemId: number) => `${kind}:${itemId}`;

/** Fresh from the database (never the read cache: a compare-and-set needs the current `seq`). */
export function getPublication(kind: PublicationKind, itemId: number) {
  return Publication.findOne({ key: publicationKey(kind, itemId) }).lean<PublicationDoc>();
}

/** The entries that ever used `path` for an id (at most a few: slugs are reused rarely). */
export function publicationsByPath(path: string) {
  return Publication.find({ paths: path }).sort({ id: -1 }).limit(20).lean<PublicationDoc[]>();
}

export type PublicationChange = Partial<
  Pick<
    PublicationDoc,
    | 'state'
    | 'objectId'
    | 'generation'
    | 'createSeq'
    | 'digest'
    | 'lastVerb'
    | 'publishedAt'
    | 'withdrawnAt'
    | 'objectType'
    | 'unsent'
    | 'dueAt'
  >
> & { addPath?: string };

/**
 * The first record of an item (a `Create`, or a wait). False when another instance recorded it
 * first: the caller reads again and decides anew.
 */
export async function insertPublication(
  kind: PublicationKind,
  itemId: number,
  change: PublicationChange,
): Promise<PublicationDoc | null> {
  const { addPath, ...fields } = change;
  try {
    const doc = await Publication.create({
      key: publicationKey(kind, itemId),
      kind,
      itemId,
      state: 'waiting',
      seq: change.lastVerb ? 1 : 0,
      paths: addPath ? [addPath] : [],
      ...fields,
    });
    return doc.toObject() as PublicationDoc;
  } catch (error) {
    if (isDuplicateKeyError(error)) return null;
    throw error;
  }
}

/**
 * Compare-and-set: apply `change` only while the entry is still at `seq` (what the caller read);
 * `bump` moves `seq` on (an activity was recorded). The winner gets the new document; a caller
 * that lost the race gets null.
 */
export function transitionPublication(
  key: string,
  seq: number,
  change: PublicationChange,
  bump: boolean,
): Promise<PublicationDoc | null> {
  const { addPath, ...fields } = change;
  return Publication.findOneAndUpdate(
    { key, seq },
    {
      $set: { ...fields, ...(bump ? { seq: seq + 1 } : {}) },
      ...(addPath ? { $addToSet: { paths: addPath } } : {}),
    },
    { returnDocument: 'after' },
  ).lean<PublicationDoc>();
}

/** Forget an entry that never sent anything (a waiting item deleted or no longer scheduled). */
export async function dropWaitingPublication(key: string, seq: number): Promise<void> {
  await Publication.deleteOne({ key, seq, state: 'waiting' });
}

/** Up to `limit` entries due by `now`, the oldest due first. */
export function duePublications(now: Date, limit: number) {
  return Publication.find({ dueAt: mongoose.trusted({ $lte: now }) })
    .sort({ dueAt: 1 })
    .limit(limit)
    .lean<PublicationDoc[]>();
}

/**
 * Claim a due entry for `leaseMs` (its `dueAt` moves on): one instance of several sweeping at
 * once gets it. Null when another instance claimed it or it is no longer due.
 */
export function claimDuePublication(
  key: string,
  seq: number,
  now: Date,
  leaseMs: number,
): Promise<PublicationDoc | null> {
  return Publication.findOneAndUpdate(
    { key, seq, dueAt: mongoose.trusted({ $lte: now }) },
    { $set: { dueAt: new Date(now.getTime() + leaseMs) } },
    { returnDocument: 'after' },
  ).lean<PublicationDoc>();
}

const OUTBOX_SORT = { publishedAt: -1, id: -1 } as const;

/** A page of the outbox: published items, newest publication first (keyset cursor). */
export function pagePublished(
  cursor: string | null,
  limit: number,
): Promise<KeysetPage<PublicationDoc>> {
  return findKeysetPage(Publication, {
    filter: { state: 'published' },
    sort: OUTBOX_SORT,
    limit,
    cursor,
  });
}

export const countPublished = () => countRecords(Publication, { state: 'published' });
