import mongoose, { Schema } from 'mongoose';

import type { GuestListSpotJSON } from '~/types/entities';
import { siteToday } from '~/utils/time';

import { cachedFind, defineModel, isDuplicateKeyError, iso } from './model-helpers.server';
import { Show } from './show.server';
import { isActiveUser } from './user.server';

/**
 * Members' guest lists of shows (decision 018). A spot is one document per (show, member);
 * the show keeps `guestListCount`, moved only by the atomic, conditional `$inc`s below, so the
 * capacity holds however many requests (and app instances) race for the last spot: the count
 * is reserved first (`guestListCount < capacity` in the same update), the spot written second,
 * and the reservation given back if the spot cannot be written.
 *
 * A request also races the deletion of its member's account (another session): deletion marks
 * the user first and then removes the spots; a request checks the mark after writing its spot
 * and, when marked, takes the spot back itself. Whichever order the database sees, one of the
 * two finds the spot (decision 030).
 */

type GuestListSpotDoc = {
  showId: number;
  userId: number;
  /** The name at the time of the request (the admin's list and its CSV). */
  username: string;
  createdAt: Date;
  updatedAt: Date;
};

const GuestListSpotSchema = new Schema<GuestListSpotDoc>(
  {
    showId: { type: Number, required: true },
    userId: { type: Number, required: true, index: true },
    username: { type: String, required: true },
  },
  { timestamps: true },
);
GuestListSpotSchema.index({ showId: 1, userId: 1 }, { unique: true });

export const GuestListSpot = defineModel<GuestListSpotDoc>(
  'GuestListSpot',
  GuestListSpotSchema,
  'guest_list_spots',
);

const toSpotJSON = (s: GuestListSpotDoc): GuestListSpotJSON => ({
  showId: s.showId,
  userId: s.userId,
  username: s.username,
  createdAt: iso(s.createdAt),
});

/**
 * The guest-list confirmation email sent to a member for a show: one document per (show,
 * member), kept when the spot is cancelled, so asking again does not mail again (decision 030).
 * The unique index makes the claim atomic: of two racing requests, one inserts it.
 */
type GuestListConfirmationDoc = { showId: number; userId: number; sentAt: Date };

const GuestListConfirmationSchema = new Schema<GuestListConfirmationDoc>({
  showId: { type: Number, required: true },
  userId: { type: Number, required: true, index: true },
  sentAt: { type: Date, required: true },
});
GuestListConfirmationSchema.index({ showId: 1, userId: 1 }, { unique: true });

export const GuestListConfirmation = defineModel<GuestListConfirmationDoc>(
  'GuestListConfirmation',
  GuestListConfirmationSchema,
  'guest_list_confirmations',
);

/** True for the one caller that may send this member's confirmation for this show. */
export async function claimGuestListConfirmation(showId: number, userId: number): Promise<boolean> {
  try {
    await GuestListConfirmation.create({ showId, userId, sentAt: new Date() });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** Give a claim back (the email could not be queued), so a later request may send it. */
export async function releaseGuestListConfirmation(showId: number, userId: number) {
  await GuestListConfirmation.deleteOne({ showId, userId });
}

export type SpotRequestResult = 'added' | 'already' | 'full' | 'closed';

/**
 * Ask for a spot on a show's guest list for this member. `closed`: no such show, no guest
 * list, the show is over, or the account is gone or being deleted; `full`: every spot is
 * taken; `already`: the member has one.
 */
export async function requestGuestListSpot(
  showId: number,
  user: { id: number; username: string },
  today: string = siteToday(),
): Promise<SpotRequestResult> {
  const show = await Show.findOne({ id: showId }).lean();
  const capacity = show?.guestListCapacity ?? 0;
  if (!show || capacity <= 0 || show.date < today) return 'closed';
  if (!(await isActiveUser(user.id))) return 'closed';
  if (await GuestListSpot.exists({ showId, userId: user.id })) return 'already';

  const reserved = await Show.findOneAndUpdate(
    { id: showId, guestListCount: mongoose.trusted({ $lt: capacity }) },
    { $inc: { guestListCount: 1 } },
    { returnDocument: 'after' },
  ).lean();
  // No spot left, unless this member's own request just took one (asked twice at once).
  if (!reserved) {
    return (await GuestListSpot.exists({ showId, userId: user.id })) ? 'already' : 'full';
  }
  try {
    await GuestListSpot.create({ showId, userId: user.id, username: user.username });
  } catch (error) {
    await releaseReservation(showId);
    if (isDuplicateKeyError(error)) return 'already';
    throw error;
  }
  // The account's deletion may have started since the first check and missed this spot:
  // then it is this request's to take back (whichever of the two finds it first removes it).
  if (!(await isActiveUser(user.id))) {
    await cancelGuestListSpot(showId, user.id);
    return 'closed';
  }
  return 'added';
}

async function releaseReservation(showId: number): Promise<void> {
  await Show.updateOne(
    { id: showId, guestListCount: mongoose.trusted({ $gt: 0 }) },
    { $inc: { guestListCount: -1 } },
  );
}

/** Give a spot back; false when the member had none. */
export async function cancelGuestListSpot(showId: number, userId: number): Promise<boolean> {
  const removed = await GuestListSpot.findOneAndDelete({ showId, userId }).lean();
  if (!removed) return false;
  await releaseReservation(showId);
  return true;
}

/**
 * Every spot of a member (account deletion, after `markUserDeleting`), each given back to its
 * show, and the record of the confirmations sent to them.
 */
export async function removeGuestListSpotsOfUser(userId: number): Promise<number> {
  const spots = await GuestListSpot.find({ userId }).lean();
  let removed = 0;
  for (const spot of spots) {
    if (await cancelGuestListSpot(spot.showId, userId)) removed += 1;
  }
  await GuestListConfirmation.deleteMany({ userId });
  return removed;
}

/** When a show is deleted, its list goes with it. */
export async function deleteGuestListOfShow(showId: number): Promise<void> {
  await GuestListSpot.deleteMany({ showId });
  await GuestListConfirmation.deleteMany({ showId });
}

/** A show's list, in the order the spots were given. */
export async function listGuestList(showId: number): Promise<GuestListSpotJSON[]> {
  const docs = await cachedFind(GuestListSpot, {
    filter: { showId },
    sort: { createdAt: 1, userId: 1 },
  });
  return docs.map(toSpotJSON);
}

/** The shows this member has a spot for. */
export async function guestListShowIdsOfUser(userId: number): Promise<number[]> {
  const docs = await cachedFind(GuestListSpot, { filter: { userId }, fields: ['showId'] });
  return docs.map((d) => d.showId);
}
