import { publishItem } from '~/fediverse/publication.server';
import {
  claimGuestListConfirmation,
  deleteGuestListOfShow,
  listGuestList,
  releaseGuestListConfirmation,
  requestGuestListSpot,
  type SpotRequestResult,
} from '~/models/guest-list.server';
import { createShow, deleteShow, type ShowWrite, updateShow } from '~/models/show.server';
import { getUserEmail } from '~/models/user.server';
import type { ShowJSON, UserJSON } from '~/types/entities';
import { toCsv } from '~/utils/csv';
import { formatMessageDate } from '~/utils/time';

import { notifyGuestListSpot } from './mail.server';

/** Delete a show and its guest list (the admin page and DELETE /api/admin/shows/{id}). */
export async function removeShow(id: number): Promise<ShowJSON | null> {
  const show = await deleteShow(id);
  if (show) await deleteGuestListOfShow(id);
  // Followers on the fediverse get a Delete of its Event (decision 054).
  if (show) void publishItem('show', id);
  return show;
}

/** Add a show (the admin form and POST /api/admin/shows): an upcoming one goes to followers. */
export async function addShow(input: ShowWrite): Promise<ShowJSON> {
  const show = await createShow(input);
  void publishItem('show', show.id);
  return show;
}

/** Edit a show (the admin form and PUT /api/admin/shows/{id}): followers get an Update. */
export async function editShow(id: number, input: ShowWrite): Promise<ShowJSON | null> {
  const show = await updateShow(id, input);
  if (show) void publishItem('show', id);
  return show;
}

/** The guest list of a show as CSV: name and when the spot was given (New York time). */
export async function guestListCsv(show: ShowJSON): Promise<string> {
  const spots = await listGuestList(show.id);
  return toCsv([
    ['Name', 'Requested (New York time)'],
    ...spots.map((spot) => [spot.username, formatMessageDate(spot.createdAt)]),
  ]);
}

/**
 * A member asks for a spot (decision 018). A new spot is confirmed by email when the account
 * has a confirmed address (decisions 020, 030), once per member and show however often the
 * spot is cancelled and asked for again; the spot is the database's answer, the email follows.
 */
export async function joinGuestList(
  show: ShowJSON,
  member: UserJSON,
  when: string,
): Promise<SpotRequestResult> {
  const result = await requestGuestListSpot(show.id, member);
  if (result !== 'added') return result;
  const email = await getUserEmail(member.id);
  if (!email || !(await claimGuestListConfirmation(show.id, member.id))) return result;
  try {
    await notifyGuestListSpot({ ...member, email }, show, when);
  } catch (error) {
    await releaseGuestListConfirmation(show.id, member.id);
    throw error;
  }
  return result;
}
