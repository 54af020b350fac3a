import mongoose, { Schema } from 'mongoose';

import type { ShowJSON } from '~/types/entities';
import { compareShows, siteToday, splitShows, timeToMinutes } from '~/utils/time';

import { serialIdPlugin } from './counter.server';
import { cachedFind, cachedFindOne, defineModel, iso } from './model-helpers.server';
import {
  countRecords,
  findNumberedPage,
  type NumberedPage,
  numberedPagesOf,
  positionOf,
  type RecordList,
  streamRecords,
} from './paging.server';

type ShowDoc = Pick<ShowJSON, 'id' | 'title' | 'venue' | 'location' | 'date' | 'time'> & {
  /**
   * The door time as minutes after midnight (`timeToMinutes(time)`; an unreadable time is the
   * end of the day): the stored sort key within a day, kept with `time` on every write.
   */
  startMinutes?: number;
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
    startMinutes: { type: Number },
    ticketUrl: { type: String, default: null },
    description: { type: String, default: null },
    guestListCapacity: { type: Number, default: 0, min: 0 },
    guestListCount: { type: Number, default: 0, min: 0 },
  },
  { timestamps: true },
);
ShowSchema.plugin(serialIdPlugin, { counter: 'shows' });
// A document saved through the model (the forms, the seed, tests) carries its door time's key.
ShowSchema.pre('validate', function setStartMinutes() {
  if (typeof this.time === 'string') this.startMinutes = timeToMinutes(this.time);
});
// Every list of shows a page at a time (issue 37), in show order: by date, then door time (the
// stored `startMinutes`), then id. /shows (upcoming soonest first, past most recent first: this
// index walked backwards), the back office (latest first), the footer, the full API list.
ShowSchema.index({ date: 1, startMinutes: 1, id: 1 });
// GET /api/shows in pages and the calendar feed's ranges keep their keyset by date, then id
// (decision 045: a cursor holds the sort's values, and issued cursors stay valid).
ShowSchema.index({ date: 1, id: 1 });

/** Show order: by date, then door time, then id (index `{ date: 1, startMinutes: 1, id: 1 }`). */
const SHOW_ORDER = { date: 1, startMinutes: 1, id: 1 } as const;
/** Show order reversed: the latest date, and on one day the latest door time, first. */
const SHOW_ORDER_LATEST_FIRST = { date: -1, startMinutes: -1, id: -1 } as const;

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
const ADMIN_SHOWS_ORDER = SHOW_ORDER_LATEST_FIRST;

/**
 * The page of the back office's list a show is on (1-based): an indexed count of the shows
 * before it, so that after a save the admin lands where the show is.
 */
export async function adminPageOfShow(
  show: Pick<ShowJSON, 'id' | 'date' | 'time'>,
): Promise<number> {
  const before = await positionOf(
    Show,
    { sort: ADMIN_SHOWS_ORDER },
    { ...show, startMinutes: timeToMinutes(show.time) },
  );
  return Math.floor(before / ADMIN_SHOWS_PER_PAGE) + 1;
}

/** Upcoming shows listed on /shows before the list pages (more is a link to the next page). */
export const UPCOMING_SHOWS_PER_PAGE = 50;
/** Past shows on one page of /shows' archive. */
export const PAST_SHOWS_PER_PAGE = 20;

/**
 * One page of upcoming shows (on or after `today`, site time zone), soonest first; or of past
 * shows (before `today`), most recent first (issue 37). The store orders by date, door time
 * (`startMinutes`) and id, so several shows of one day keep their order across a page boundary.
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
    sort: upcoming ? SHOW_ORDER : SHOW_ORDER_LATEST_FIRST,
    page: options.page,
    perPage: options.perPage ?? (upcoming ? UPCOMING_SHOWS_PER_PAGE : PAST_SHOWS_PER_PAGE),
  });
  return { ...found, items: found.items.map(toShowJSON) };
}

/**
 * Where a show is listed on /shows: the upcoming list or the archive, and its page there (an
 * indexed count of the shows before it). A show's ActivityPub id, `/shows/{id}`, sends a
 * browser there (decision 054).
 */
export async function publicPageOfShow(
  show: Pick<ShowJSON, 'id' | 'date' | 'time'>,
  today: string = siteToday(),
): Promise<{ when: 'upcoming' | 'past'; page: number }> {
  const upcoming = show.date >= today;
  const before = await positionOf(
    Show,
    {
      filter: { date: mongoose.trusted(upcoming ? { $gte: today } : { $lt: today }) },
      sort: upcoming ? SHOW_ORDER : SHOW_ORDER_LATEST_FIRST,
    },
    { ...show, startMinutes: timeToMinutes(show.time) },
  );
  const perPage = upcoming ? UPCOMING_SHOWS_PER_PAGE : PAST_SHOWS_PER_PAGE;
  return { when: upcoming ? 'upcoming' : 'past', page: Math.floor(before / perPage) + 1 };
}

/** The next `limit` upcoming shows in show order (the footer, the dashboard, /about). */
export async function listNextShows(limit: number, today: string = siteToday()) {
  const docs = await cachedFind(Show, {
    filter: { date: mongoose.trusted({ $gte: today }) },
    sort: SHOW_ORDER,
    limit,
  });
  return docs.map(toShowJSON);
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
  startMinutes: timeToMinutes(input.time),
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
 * One page of the back office's list, the latest date first (issue 37; the show-order index
 * walked backwards): the shows being planned open the list, the archive is paged behind them.
 * On one day the latest door time comes first ('10:00 PM' before '8:00 PM'), then the highest id.
 */
export const pageShows = numberedPagesOf(Show, ADMIN_SHOWS_ORDER, toShowJSON);

// --- the API's list and the calendar feed (issue 37, decision 045) ---

const BY_DATE = { date: 1, id: 1 } as const;

/**
 * GET /api/shows in pages: by date, then by id (index `{ date: 1, id: 1 }`, decision 045: the
 * cursors issued before door times were stored stay valid). The whole list
 * (`streamShowsInOrder`) is in show order, by door time within a day.
 */
export const showList = (): RecordList<ShowDoc> => ({ model: Show, sort: BY_DATE });

/** Every show in show order (date, door time, id), streamed: memory does not grow with the list. */
export function streamShowsInOrder(): AsyncIterable<ShowDoc> {
  return streamRecords(Show, { sort: SHOW_ORDER });
}

/**
 * Shows stored before door times were (or written around the model) get their `startMinutes`.
 * Run at start; idempotent. Reads only the shows without one.
 */
export async function migrateShowStartMinutes(): Promise<number> {
  let changed = 0;
  const missing = streamRecords(Show, {
    filter: { startMinutes: mongoose.trusted({ $exists: false }) },
    sort: { id: 1 },
    fields: ['time'],
  });
  for await (const show of missing) {
    const result = await Show.updateOne(
      { id: show.id, time: show.time },
      { $set: { startMinutes: timeToMinutes(show.time) } },
    );
    changed += result.modifiedCount;
  }
  return changed;
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
