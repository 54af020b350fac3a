import mongoose, { Schema } from 'mongoose';

import { defineModel } from './model-helpers.server';

/**
 * Listening and visit statistics (decision 024): daily aggregates only, no event log, no
 * personal data.
 *
 * - `stats_daily`: one document per day (New York time), metric and key, `n` the count,
 *   moved only by `$inc` upserts (so instances add up).
 * - `stats_seen`: the hashes of (client, what) seen in the last 30 minutes, to count a repeat
 *   once; a TTL index deletes each 30 minutes after its `at`. A podcast download (decision 037)
 *   counts once per client, episode and day: its sighting is written with an `at` a day
 *   ahead, so it lives until that day's salt is gone. The hash cannot be turned
 *   back into an address: it is salted with a value that changes every day.
 */
/**
 * `download`: a podcast episode fetched from a feed's enclosure (decision 037); `embed`: a play
 * started in an embed (decision 038), keyed by the embedding site's host.
 */
export const STAT_METRICS = [
  'play',
  'start',
  'view',
  'visit',
  'referrer',
  'download',
  'embed',
] as const;
export type StatMetric = (typeof STAT_METRICS)[number];

export const REPEAT_WINDOW_SECONDS = 30 * 60;

type DailyDoc = { _id: string; day: string; metric: StatMetric; key: string; n: number };
const DailySchema = new Schema<DailyDoc>(
  {
    _id: String,
    day: { type: String, required: true },
    metric: { type: String, required: true, enum: STAT_METRICS },
    key: { type: String, default: '' },
    n: { type: Number, default: 0 },
  },
  { versionKey: false },
);
DailySchema.index({ metric: 1, day: 1 });
export const StatsDaily = defineModel<DailyDoc>('StatsDaily', DailySchema, 'stats_daily');

type SeenDoc = { _id: string; at: Date };
const SeenSchema = new Schema<SeenDoc>(
  { _id: String, at: { type: Date, required: true } },
  {
    versionKey: false,
  },
);
SeenSchema.index({ at: 1 }, { expireAfterSeconds: REPEAT_WINDOW_SECONDS });
export const StatsSeen = defineModel<SeenDoc>('StatsSeen', SeenSchema, 'stats_seen');

export type DailyCount = { day: string; metric: StatMetric; key: string; n: number };

/** Add counts (one `$inc` upsert per day, metric and key; the same key twice is summed first). */
export async function addDailyCounts(counts: DailyCount[]): Promise<void> {
  const summed = new Map<string, DailyCount>();
  for (const c of counts) {
    const id = `${c.day}|${c.metric}|${c.key}`;
    const before = summed.get(id);
    summed.set(id, before ? { ...before, n: before.n + c.n } : { ...c });
  }
  if (summed.size === 0) return;
  await StatsDaily.bulkWrite(
    [...summed.entries()].map(([id, c]) => ({
      updateOne: {
        filter: { _id: id },
        update: { $inc: { n: c.n }, $setOnInsert: { day: c.day, metric: c.metric, key: c.key } },
        upsert: true,
      },
    })),
    { ordered: false },
  );
}

/**
 * Which of these hashes were not seen in the last 30 minutes, by any instance: each is
 * inserted, and the database's unique `_id` refuses the repeats.
 */
export async function firstSightings(hashes: string[], at = new Date()): Promise<Set<string>> {
  const unique = [...new Set(hashes)];
  if (unique.length === 0) return new Set();
  const collection = StatsSeen.db.collection<SeenDoc>('stats_seen');
  try {
    await collection.insertMany(
      unique.map((_id) => ({ _id, at })),
      { ordered: false },
    );
    return new Set(unique);
  } catch (error) {
    // The driver gives one error as an object, several as a list.
    type WriteError = { index: number; code?: number };
    const found = (error as { writeErrors?: WriteError | WriteError[] }).writeErrors;
    if (!found) throw error;
    const refused = new Set<number>();
    for (const e of Array.isArray(found) ? found : [found]) {
      if (e.code !== 11000) throw error;
      refused.add(e.index);
    }
    return new Set(unique.filter((_, i) => !refused.has(i)));
  }
}

/** The counts of a metric from `fromDay` to `toDay` (inclusive, YYYY-MM-DD). */
export async function readDaily(
  metric: StatMetric,
  fromDay: string,
  toDay: string,
): Promise<{ day: string; key: string; n: number }[]> {
  return StatsDaily.find(
    {
      metric,
      day: mongoose.trusted({ $gte: fromDay, $lte: toDay }),
    },
    { _id: 0, day: 1, key: 1, n: 1 },
  )
    .lean()
    .exec();
}

/**
 * The counts of a metric from `fromDay` to `toDay` for these keys only (e.g. the tracks of one
 * page of the admin list): bounded by the keys and the days, not by the catalogue.
 */
export async function readDailyForKeys(
  metric: StatMetric,
  fromDay: string,
  toDay: string,
  keys: readonly string[],
): Promise<{ day: string; key: string; n: number }[]> {
  if (keys.length === 0) return [];
  return StatsDaily.find(
    {
      metric,
      day: mongoose.trusted({ $gte: fromDay, $lte: toDay }),
      key: mongoose.trusted({ $in: [...keys] }),
    },
    { _id: 0, day: 1, key: 1, n: 1 },
  )
    .lean()
    .exec();
}
