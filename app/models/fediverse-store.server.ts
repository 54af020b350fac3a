import mongoose, { Schema, type Types } from 'mongoose';

import { defineModel } from './model-helpers.server';

/**
 * What Fedify keeps (decision 053), on MongoDB or the embedded store alike:
 *
 * - `fediverse_kv`: its key-value store (remote documents and keys it cached, the ids of the
 *   activities it already processed). `_id` is the key, values are JSON text (JSON-LD has keys
 *   no MongoDB field may have), `expiresAt` is the optional TTL (a TTL index removes them, and
 *   a read ignores one already past).
 * - `fediverse_jobs`: its message queue (deliveries, incoming activities, fan-outs) claimed
 *   with a lease by the durable-queue loop (app/platform/durable-queue.server.ts) as the mail
 *   queue is: `queued` until `notBefore`, `running` by `claimedBy` until `notBefore` (the
 *   lease); a finished job is deleted. `host` is the remote host of a delivery (the
 *   per-host limit), `expiresAt` when a job still failing is dropped.
 * - `fediverse_keys`: the actor's key pairs (JWK), one document per algorithm.
 */
type KvDoc = { _id: string; value: string; expiresAt?: Date };

const KvSchema = new Schema<KvDoc>(
  { _id: String, value: { type: String, required: true }, expiresAt: Date },
  { versionKey: false },
);
KvSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
export const FediverseKv = defineModel<KvDoc>('FediverseKv', KvSchema, 'fediverse_kv');

export async function kvGet(key: string, now = new Date()): Promise<string | undefined> {
  const doc = await FediverseKv.findById(key).lean();
  if (!doc || (doc.expiresAt && doc.expiresAt <= now)) return undefined;
  return doc.value;
}

export async function kvSet(key: string, value: string, expiresAt?: Date): Promise<void> {
  await FediverseKv.updateOne(
    { _id: key },
    expiresAt ? { $set: { value, expiresAt } } : { $set: { value }, $unset: { expiresAt: 1 } },
    { upsert: true },
  );
}

export async function kvDelete(key: string): Promise<void> {
  await FediverseKv.deleteOne({ _id: key });
}

export type JobDoc = {
  _id: Types.ObjectId;
  /** The message, JSON text. */
  message: string;
  kind: string;
  host?: string;
  state: 'queued' | 'running';
  attempts: number;
  notBefore: Date;
  claimedBy?: string;
  lastError?: string;
  expiresAt: Date;
  createdAt: Date;
};

const JobSchema = new Schema<JobDoc>(
  {
    message: { type: String, required: true },
    kind: { type: String, required: true },
    host: String,
    state: { type: String, enum: ['queued', 'running'], required: true },
    attempts: { type: Number, required: true, default: 0 },
    notBefore: { type: Date, required: true },
    claimedBy: String,
    lastError: String,
    expiresAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// The claim: the due ones, oldest first.
JobSchema.index({ notBefore: 1 });
// The per-host limit: deliveries in flight to a host.
JobSchema.index({ host: 1, state: 1, notBefore: 1 });
export const FediverseJob = defineModel<JobDoc>('FediverseJob', JobSchema, 'fediverse_jobs');

export async function insertJobs(
  jobs: { message: string; kind: string; host?: string; notBefore: Date; expiresAt: Date }[],
): Promise<void> {
  const now = new Date();
  await FediverseJob.insertMany(
    jobs.map((job) => ({ ...job, state: 'queued', attempts: 0, createdAt: now })),
  );
}

/** Claim the oldest due job for `workerId` until `leaseMs` from now (atomic: one taker). */
export function claimJob(workerId: string, leaseMs: number, now = new Date()) {
  return FediverseJob.findOneAndUpdate(
    { notBefore: mongoose.trusted({ $lte: now }) },
    {
      $set: { state: 'running', claimedBy: workerId, notBefore: new Date(now.getTime() + leaseMs) },
      $inc: { attempts: 1 },
    },
    { sort: { notBefore: 1 }, returnDocument: 'after' },
  ).lean<JobDoc>();
}

/** Deliveries to `host` held under a live lease (this one included). */
export function runningForHost(host: string, now = new Date()): Promise<number> {
  return FediverseJob.countDocuments({
    host,
    state: 'running',
    notBefore: mongoose.trusted({ $gt: now }),
  }).exec();
}

/** Keep a claim: false when it was lost (another instance took the job over). */
export async function renewJob(id: Types.ObjectId, workerId: string, leaseMs: number) {
  const result = await FediverseJob.updateOne(
    { _id: id, claimedBy: workerId, state: 'running' },
    { $set: { notBefore: new Date(Date.now() + leaseMs) } },
  );
  return result.matchedCount > 0;
}

/** Done (or dropped): only the holder of the claim removes it. */
export async function finishJob(id: Types.ObjectId, workerId: string): Promise<void> {
  await FediverseJob.deleteOne({ _id: id, claimedBy: workerId });
}

/** Queued again for `at` (a retry, or a release when the host is busy: `attempts` undone). */
export async function requeueJob(
  id: Types.ObjectId,
  workerId: string,
  at: Date,
  options: { error?: string; release?: boolean } = {},
): Promise<void> {
  await FediverseJob.updateOne(
    { _id: id, claimedBy: workerId, state: 'running' },
    {
      $set: {
        state: 'queued',
        notBefore: at,
        ...(options.error ? { lastError: options.error.slice(0, 1000) } : {}),
      },
      $unset: { claimedBy: 1 },
      ...(options.release ? { $inc: { attempts: -1 } } : {}),
    },
  );
}

/** Jobs waiting or in flight (tests wait for none). */
export const countJobs = () => FediverseJob.countDocuments({}).exec();

type KeyDoc = { _id: string; publicKey: string; privateKey: string; createdAt: Date };
const KeySchema = new Schema<KeyDoc>(
  {
    _id: String,
    publicKey: { type: String, required: true },
    privateKey: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
export const FediverseKey = defineModel<KeyDoc>('FediverseKey', KeySchema, 'fediverse_keys');

export type StoredKeyPair = { algorithm: string; publicKey: string; privateKey: string };

export async function getStoredKeyPairs(): Promise<StoredKeyPair[]> {
  const docs = await FediverseKey.find({}).sort({ _id: -1 }).lean();
  return docs.map((d) => ({ algorithm: d._id, publicKey: d.publicKey, privateKey: d.privateKey }));
}

/**
 * Store a pair for `algorithm` unless one exists (`replace`: rotation). Instances starting
 * together keep the first one written.
 */
export async function storeKeyPair(pair: StoredKeyPair, replace = false): Promise<void> {
  const doc = { publicKey: pair.publicKey, privateKey: pair.privateKey, createdAt: new Date() };
  await FediverseKey.updateOne(
    { _id: pair.algorithm },
    replace ? { $set: doc } : { $setOnInsert: doc },
    { upsert: true },
  );
}

/**
 * Note that an activity id is being sent; false when it was already (sendToFollowers sends an
 * id once). Kept in the key-value collection under `sent:<id>` for 30 days.
 */
export async function claimActivityId(activityId: string): Promise<boolean> {
  try {
    await FediverseKv.create({
      _id: `sent:${activityId}`,
      value: 'true',
      expiresAt: new Date(Date.now() + 30 * 24 * 3_600_000),
    });
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === 11000) return false;
    throw error;
  }
}

/** Forget that an activity id was sent (its sending failed before anything was queued). */
export async function releaseActivityId(activityId: string): Promise<void> {
  await FediverseKv.deleteOne({ _id: `sent:${activityId}` });
}
