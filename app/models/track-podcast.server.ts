import mongoose from 'mongoose';

import { logger } from '~/platform/logger.server';
import { isLoopbackHostname, siteOrigin } from '~/platform/site-origin.server';
import { MIX_TYPES } from '~/types/constants';
import type { TrackJSON } from '~/types/entities';

import { cachedFind, cachedFindOne } from './model-helpers.server';
import { streamRecords } from './paging.server';
import {
  NEWEST_FIRST,
  newPodcastGuid,
  toTrackJSON,
  Track,
  TRACK_JSON_FIELDS,
} from './track.server';

/**
 * Tracks as the podcast feeds see them (decision 037): the mixes (type in MIX_TYPES), each
 * with its episode's GUID, listed, streamed or read one at a time; and the start-up migration
 * that gives older tracks their GUID.
 */

/** A mix as the podcast feeds list it: the track and its episode's GUID. */
export type PodcastMix = TrackJSON & { podcastGuid: string };

/** Every long-form set (type in MIX_TYPES), newest first: the podcast feeds' episodes. */
export async function listMixes(): Promise<PodcastMix[]> {
  const read = () =>
    cachedFind(Track, {
      filter: { type: mongoose.trusted({ $in: [...MIX_TYPES] }) },
      sort: NEWEST_FIRST,
    });
  let docs = await read();
  // A track written without one since the start (a restore, a raw insert) gets it here, by the
  // same rule and the same only-if-absent writes as at start.
  if (docs.some((d) => !d.podcastGuid)) {
    await migrateTrackGuids();
    docs = await read();
  }
  return docs
    .filter((d): d is typeof d & { podcastGuid: string } => Boolean(d.podcastGuid))
    .map((d) => ({ ...toTrackJSON(d), podcastGuid: d.podcastGuid }));
}

/**
 * Tracks stored before GUIDs were (decision 037) get one, once. Their episodes went out with
 * `{host}:track:{id}`, the host being SITE_URL's: where that is a real host, podcast apps may
 * hold that GUID, so it is kept as it was; where it names this machine (SITE_URL unset, or
 * localhost/loopback: every fresh clone's demo content) nothing was published, and the track
 * gets a host-free one like a new track.
 *
 * Run at start, before the server answers. Reads only the tracks without a GUID, through a
 * cursor, and writes in batches; each write applies only while the track still has none, so
 * several instances starting together (or a second run) change nothing another has set.
 * Answers how many tracks got one.
 */
export async function migrateTrackGuids(
  options: { origin?: string; batchSize?: number } = {},
): Promise<number> {
  const origin = new URL(options.origin ?? siteOrigin());
  const published = !isLoopbackHostname(origin.hostname);
  const batchSize = options.batchSize ?? 500;
  const missing = { podcastGuid: null };
  type Op = { updateOne: { filter: object; update: object; timestamps: false } };
  let batch: Op[] = [];
  let changed = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const ops = batch;
    batch = [];
    changed += (await Track.bulkWrite(ops, { ordered: false })).modifiedCount;
  };
  const cursor = Track.find(missing, { _id: 1, id: 1 }).lean().cursor({ batchSize });
  try {
    for await (const doc of cursor) {
      const podcastGuid = published ? `${origin.host}:track:${doc.id}` : newPodcastGuid();
      batch.push({
        updateOne: {
          filter: { _id: doc._id, ...missing },
          update: { $set: { podcastGuid } },
          // A GUID is not an edit: updatedAt stays.
          timestamps: false,
        },
      });
      if (batch.length >= batchSize) await flush();
    }
    await flush();
  } finally {
    await cursor.close();
  }
  if (changed > 0) {
    logger.info(
      published
        ? `podcast: ${changed} track(s) keep the GUID they were published with (${origin.host}:track:{id})`
        : `podcast: ${changed} track(s) got a host-free GUID`,
    );
  }
  return changed;
}

const MIX_FILTER = () => ({ type: mongoose.trusted({ $in: [...MIX_TYPES] }) });

/**
 * Every mix (type in MIX_TYPES), newest first, with its episode GUID, streamed with only the
 * fields a feed prints: the podcast feeds' episodes, built without holding the archive's
 * documents. A mix without a GUID (a restore, a raw insert) is skipped here and given one at
 * once (`migrateTrackGuids`), so the next build of the feed has it.
 */
export async function* streamMixes(): AsyncGenerator<PodcastMix> {
  let missing = false;
  const docs = streamRecords(Track, {
    filter: MIX_FILTER(),
    sort: NEWEST_FIRST,
    fields: [...TRACK_JSON_FIELDS, 'podcastGuid'],
  });
  for await (const doc of docs) {
    if (doc.podcastGuid) yield { ...toTrackJSON(doc), podcastGuid: doc.podcastGuid };
    else missing = true;
  }
  if (missing) await migrateTrackGuids();
}

/** One mix by id (an enclosure or a cover), without reading the others. */
export async function getMix(id: number): Promise<PodcastMix | null> {
  const doc = await cachedFindOne(Track, { filter: { id, ...MIX_FILTER() } });
  if (!doc) return null;
  if (!doc.podcastGuid) {
    await migrateTrackGuids();
    const again = await Track.findOne({ id }, { podcastGuid: 1 }).lean();
    if (!again?.podcastGuid) return null;
    return { ...toTrackJSON(doc), podcastGuid: again.podcastGuid };
  }
  return { ...toTrackJSON(doc), podcastGuid: doc.podcastGuid };
}
