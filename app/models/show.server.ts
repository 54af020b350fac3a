import mongoose, { Schema } from 'mongoose';

import type { ShowJSON } from '~/types/entities';
import { compareShows, siteToday, splitShows } from '~/utils/time';

import { serialIdPlugin } from './counter.server';
import { cachedFind, cachedFindOne, defineModel, iso } from './model-helpers.server';
import {
  countRecords,
  findNumberedPage,
  type NumberedPage,
  positionOf,
  type RecordList,
  streamRecords,
} from './paging.server';

type ShowDoc = {
  id: number;
  title: string;
  venue: string;
  location: string;
  date: string;
  time: string;
  ticketUrl?: string | null;
  description?: string | null;
  guestListCapacity?: number;
  /** Kept by guest-list.server.ts with atomic $inc, never written by the show's forms. */
  guestListCount?: number;
  createdAt: Date;
  updatedAt: Date;
};

const ShowSchema = new Schema<ShowDoc>(
  {
    title: { type: String, required: true },
    venue: { type: String, required: true },
    location: { type: String, required: true },
    date: { type: String, required: true, index: true },
    time: { type: String, required: true },
    ticketUrl: { type: String, default: null },
    description: { type: String, default: null },
    guestListCapacity: { type: Number, default: 0, min: 0 },
    guestListCount: { type: Number, default: 0, min: 0 },
  },
  { timestamps: true },
);
ShowSchema.plugin(serialIdPlugin, { counter: 'shows' });
// Every list of shows, a page at a time (issue 37): /shows (upcoming soonest first, past most
// recent first), the back office, GET /api/shows and the calendar feed's ranges (decision 045).
// By date, then id: a show's time is free text, so each page is put in show order once read.
ShowSchema.index({ date: 1, id: 1 });

export const Show = defineModel<ShowDoc>('Show', ShowSchema, 'shows');

export function toShowJSON(s: ShowDoc): ShowJSON {
  return {
    id: s.id,
    title: s.title,
    venue: s.venue,
    location: s.location,
    date: s.date,
    time: s.time,
    ticketUrl: s.ticketUrl ?? null,
    description: s.description ?? null,
    guestListCapacity: s.guestListCapacity ?? 0,
    guestListCount: s.guestListCount ?? 0,
    createdAt: iso(s.createdAt),
  };
}

/** Ascending by date, then time. */
export async function listShows(): Promise<ShowJSON[]> {
  const docs = await cachedFind(Show, { sort: { date: 1, id: 1 } });
  return docs.map(toShowJSON).sort(compareShows);
}

export async function listShowsSplit(today: string = siteToday()) {
  return splitShows(await listShows(), today);
}

/** Shows on one page of the back office's list (the latest date first). */
export const ADMIN_SHOWS_PER_PAGE = 24;
const ADMIN_SHOWS_ORDER = { date: -1, id: -1 } as const;

/**
 * The page of the back office's list a show is on (1-based): an indexed count of the shows
 * before it, so that after a save the admin lands where the show is.
 */
export async function adminPageOfShow(show: Pick<ShowJSON, 'id' | 'date'>): Promise<number> {
  const before = await positionOf(Show, { sort: ADMIN_SHOWS_ORDER }, show);
  return Math.floor(before / ADMIN_SHOWS_PER_PAGE) + 1;
}

/** Upcoming shows listed on /shows before the list pages (more is a link to the next page). */
export const UPCOMING_SHOWS_PER_PAGE = 50;
/** Past shows on one page of /shows' archive. */
export const PAST_SHOWS_PER_PAGE = 20;

/**
 * One page of upcoming shows (on or after `today`, site time zone), soonest first; or of past
 * shows (before `today`), most recent first (issue 37). The store orders by date, then id; the
 * page is then ordered by date and door time (free text, so not a sort key): two shows of one
 * day that fall on either side of a page boundary keep the store's order.
 */
export async function findShowPage(options: {
  when: 'upcoming' | 'past';
  page: number;
  perPage?: number;
  today?: string;
}): Promise<NumberedPage<ShowJSON>> {
  const today = options.today ?? siteToday();
  const upcoming = options.when === 'upcoming';
  const found = await findNumberedPage(Show, {
    filter: { date: mongoose.trusted(upcoming ? { $gte: today } : { $lt: today }) },
    sort: upcoming ? { date: 1, id: 1 } : { date: -1, id: -1 },
    page: options.page,
    perPage: options.perPage ?? (upcoming ? UPCOMING_SHOWS_PER_PAGE : PAST_SHOWS_PER_PAGE),
  });
  const items = found.items
    .map(toShowJSON)
    .sort(upcoming ? compareShows : (a, b) => compareShows(b, a));
  return { ...found, items };
}

/**
 * Where a show is listed on /shows: the upcoming list or the archive, and its page there (an
 * indexed count of the shows before it). A show's ActivityPub id, `/shows/{id}`, sends a
 * browser there (decision 054).
 */
export async function publicPageOfShow(
  show: Pick<ShowJSON, 'id' | 'date'>,
  today: string = siteToday(),
): Promise<{ when: 'upcoming' | 'past'; page: number }> {
  const upcoming = show.date >= today;
  const before = await positionOf(
    Show,
    {
      filter: { date: mongoose.trusted(upcoming ? { $gte: today } : { $lt: today }) },
      sort: upcoming ? { date: 1, id: 1 } : { date: -1, id: -1 },
    },
    show,
  );
  const perPage = upcoming ? UPCOMING_SHOWS_PER_PAGE : PAST_SHOWS_PER_PAGE;
  return { when: upcoming ? 'upcoming' : 'past', page: Math.floor(before / perPage) + 1 };
}

/**
 * The next `limit` upcoming shows, soonest first (the footer): reads `limit` shows, and the
 * other shows of the last one's day, so door times order that day exactly.
 */
export async function listNextShows(limit: number, today: string = siteToday()) {
  const docs = await cachedFind(Show, {
    filter: { date: mongoose.trusted({ $gte: today }) },
    sort: { date: 1, id: 1 },
    limit,
  });
  const last = docs[docs.length - 1];
  if (!last || docs.length < limit) return docs.map(toShowJSON).sort(compareShows);
  const sameDay = await cachedFind(Show, { filter: { date: last.date }, sort: { id: 1 } });
  const ids = new Set(docs.map((d) => d.id));
  const all = [...docs, ...sameDay.filter((d) => !ids.has(d.id))];
  return all.map(toShowJSON).sort(compareShows).slice(0, limit);
}

export async function getShow(id: number): Promise<ShowJSON | null> {
  const doc = await cachedFindOne(Show, { filter: { id } });
  return doc ? toShowJSON(doc) : null;
}

/**
 * What the show's forms write: every field but the id, the timestamps and the guest-list count.
 * `guestListCapacity` absent on an update keeps the capacity; lowering it below the count
 * removes no one.
 */
export type ShowWrite = Omit<ShowDoc, 'id' | 'createdAt' | 'updatedAt' | 'guestListCount'>;

/** The fields a show's form or API writes (never `guestListCount`: guest-list.server.ts). */
const normalise = (input: ShowWrite) => ({
  title: input.title,
  venue: input.venue,
  location: input.location,
  date: input.date,
  time: input.time,
  ticketUrl: input.ticketUrl?.trim() || null,
  description: input.description?.trim() || null,
  ...(input.guestListCapacity === undefined ? {} : { guestListCapacity: input.guestListCapacity }),
});

export async function createShow(input: ShowWrite): Promise<ShowJSON> {
  const doc = await Show.create({ guestListCapacity: 0, ...normalise(input) });
  return toShowJSON(doc.toObject());
}

export async function updateShow(id: number, input: ShowWrite): Promise<ShowJSON | null> {
  const doc = await Show.findOneAndUpdate(
    { id },
    { $set: normalise(input) },
    { returnDocument: 'after' },
  ).lean();
  return doc ? toShowJSON(doc) : null;
}

export async function deleteShow(id: number): Promise<ShowJSON | null> {
  const doc = await Show.findOneAndDelete({ id }).lean();
  return doc ? toShowJSON(doc) : null;
}

/** From the collection's metadata (issue 37). */
export const countShows = () => countRecords(Show);

/**
 * One page of the back office's list, the latest date first (issue 37; the `{ date: 1, id: 1 }`
 * index walked backwards): the shows being planned open the list, the archive is paged behind
 * them. The time is free text, so the page is put in show order (`compareShows`, reversed:
 * '10:00 PM' before '8:00 PM') once read.
 */
export async function pageShows(options: {
  page: number;
  perPage: number;
}): Promise<NumberedPage<ShowJSON>> {
  const found = await findNumberedPage(Show, {
    sort: ADMIN_SHOWS_ORDER,
    page: options.page,
    perPage: options.perPage,
  });
  return { ...found, items: found.items.map(toShowJSON).sort((a, b) => compareShows(b, a)) };
}

// --- the API's list and the calendar feed (issue 37, decision 045) ---

const BY_DATE = { date: 1, id: 1 } as const;

/**
 * GET /api/shows in pages: by date, then by id (index `{ date: 1, id: 1 }`): the keyset needs a
 * stored sort, and a show's time is free text. The whole list (`streamShowsInOrder`) keeps the
 * documented order, by time within a day.
 */
export const showList = (): RecordList<ShowDoc> => ({ model: Show, sort: BY_DATE });

/**
 * Every show ascending by date, then time (`compareShows`), streamed: the cursor goes by date and
 * one day's shows at a time are put in time order, so memory holds a day, not the collection.
 */
export async function* streamShowsInOrder(): AsyncGenerator<ShowDoc> {
  let day: ShowDoc[] = [];
  for await (const show of streamRecords(Show, { sort: BY_DATE })) {
    if (day.length > 0 && day[0].date !== show.date) {
      yield* day.sort(compareShows);
      day = [];
    }
    day.push(show);
  }
  yield* day.sort(compareShows);
}

/**
 * The calendar feed's shows: the upcoming ones (today or later, soonest first, at most
 * `upcoming`) and the most recent past ones since `since` (at most `past`), in date order.
 */
export async function listShowsAround(options: {
  today: string;
  since: string;
  upcoming: number;
  past: number;
}): Promise<ShowJSON[]> {
  const [next, before] = await Promise.all([
    cachedFind(Show, {
      filter: { date: mongoose.trusted({ $gte: options.today }) },
      sort: BY_DATE,
      limit: options.upcoming,
    }),
    cachedFind(Show, {
      filter: { date: mongoose.trusted({ $gte: options.since, $lt: options.today }) },
      sort: { date: -1, id: -1 },
      limit: options.past,
    }),
  ]);
  return [...before, ...next].map(toShowJSON).sort(compareShows);
}

/** How many shows the sitemap lists. */
export const countAllShows = () => countRecords(Show);

/** The sitemap's shows, by date, streamed with only what a sitemap prints. */
export async function* streamShowLinks(
  slice: { skip?: number; limit?: number } = {},
): AsyncGenerator<{ id: number; createdAt: string }> {
  for await (const s of streamRecords(Show, { sort: BY_DATE, fields: ['createdAt'], ...slice }))
    yield { id: s.id, createdAt: iso(s.createdAt) };
}
