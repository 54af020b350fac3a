import mongoose, { Schema } from 'mongoose';

import { cachedFind, defineModel } from './model-helpers.server';
import { Track } from './track.server';

/**
 * A member's favourite tracks (decision 019): one document per (user, track). Adding is
 * idempotent (an upsert on the unique pair), so a double click, a retry or two tabs never
 * make a duplicate. A visitor without an account keeps favourites in local storage only.
 */

type FavouriteDoc = { userId: number; trackId: number; createdAt: Date; updatedAt: Date };

const FavouriteSchema = new Schema<FavouriteDoc>(
  {
    userId: { type: Number, required: true },
    trackId: { type: Number, required: true, index: true },
  },
  { timestamps: true },
);
FavouriteSchema.index({ userId: 1, trackId: 1 }, { unique: true });

export const Favourite = defineModel<FavouriteDoc>('Favourite', FavouriteSchema, 'favourites');

/** At most this many ids are taken from one merge (local storage is the visitor's to edit). */
export const MAX_MERGE = 500;

/**
 * The member's favourite track ids, oldest first, of tracks that still exist (a deleted
 * track's favourites are left behind and skipped here).
 */
export async function listFavouriteTrackIds(userId: number): Promise<number[]> {
  const docs = await cachedFind(Favourite, {
    filter: { userId },
    sort: { createdAt: 1, trackId: 1 },
    fields: ['trackId'],
  });
  if (docs.length === 0) return [];
  const existing = new Set((await cachedFind(Track, { fields: ['id'] })).map((t) => t.id));
  return docs.map((d) => d.trackId).filter((id) => existing.has(id));
}

/** Add a track; false when there is no such track. Adding twice is a no-op. */
export async function addFavourite(userId: number, trackId: number): Promise<boolean> {
  if (!(await Track.exists({ id: trackId }))) return false;
  await Favourite.updateOne(
    { userId, trackId },
    { $setOnInsert: { userId, trackId } },
    { upsert: true, timestamps: true },
  );
  return true;
}

export async function removeFavourite(userId: number, trackId: number): Promise<void> {
  await Favourite.deleteOne({ userId, trackId });
}

/**
 * Merge favourites kept in a browser into the account at login: the union of both, unknown
 * ids dropped. Returns the account's list after the merge.
 */
export async function mergeFavourites(
  userId: number,
  trackIds: readonly number[],
): Promise<number[]> {
  const wanted = [...new Set(trackIds)].slice(0, MAX_MERGE);
  if (wanted.length > 0) {
    const existing = await Track.find({ id: mongoose.trusted({ $in: wanted }) }, { id: 1 }).lean();
    await Promise.all(existing.map((t) => addFavourite(userId, t.id)));
  }
  return listFavouriteTrackIds(userId);
}

export async function removeFavouritesOfUser(userId: number): Promise<void> {
  await Favourite.deleteMany({ userId });
}
