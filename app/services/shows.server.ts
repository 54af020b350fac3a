import { deleteShow } from '~/models/show.server';
import { deleteGuestListOfShow, listGuestList } from '~/models/guest-list.server';
import type { ShowJSON } from '~/types/entities';
import { toCsv } from '~/utils/csv';
import { formatMessageDate } from '~/utils/time';

/** Delete a show and its guest list (the admin page and DELETE /api/admin/shows/{id}). */
export async function removeShow(id: number): Promise<ShowJSON | null> {
  const show = await deleteShow(id);
  if (show) await deleteGuestListOfShow(id);
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
