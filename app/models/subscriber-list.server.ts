import { SUBSCRIBER_STATUSES, type SubscriberJSON, type SubscriberStatus } from '~/types/entities';
import { escapeRegExp } from '~/utils/regexp';

import {
  countRecords,
  findNumberedPage,
  findSearchPage,
  type NumberedPage,
  type PageSort,
  streamRecords,
} from './paging.server';
import { Subscriber, toSubscriberJSON } from './subscriber.server';

// The back office's subscriber list, in pages (issue 37; decision 044, "The subscriber list at
// 500,000").

/** What the admin's subscriber list is filtered by: the search box and the status select. */
export type SubscriberQuery = { q?: string; status?: SubscriberStatus | null };

/** Newest first, with the unique id last (indexed: `{ createdAt: -1, id: -1 }`). */
export const SUBSCRIBERS_NEWEST_FIRST: PageSort = { createdAt: -1, id: -1 };

const LIST_FIELDS = ['id', 'name', 'email', 'status', 'createdAt'] as const;

/** `q` matches name or email, case-insensitively, anywhere in them (a substring). */
function subscriberFilter(query: SubscriberQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const q = query.q?.trim();
  if (q) {
    const re = new RegExp(escapeRegExp(q), 'i');
    filter.$or = [{ name: re }, { email: re }];
  }
  if (query.status) filter.status = query.status;
  return filter;
}

/** The subscribers matching the search and status filter (all pages), and the active ones. */
export type SubscriberListCounts = { matching: number; active: number };

/**
 * The admin list's counts. Without a search, indexed counts (the whole list's from the
 * collection's metadata). With one, one indexed count per status (`{ status: 1, id: 1 }`): each
 * walks its status's records testing the search, so the four together are one pass over the
 * list, and no matching record is read out of the store (a search matching most of the list
 * costs what a rare one does).
 */
export async function countSubscriberList(query: SubscriberQuery): Promise<SubscriberListCounts> {
  const q = query.q?.trim();
  const status = query.status ?? null;
  if (q) {
    const statuses = status ? [status] : SUBSCRIBER_STATUSES;
    const counts = await Promise.all(
      statuses.map((s) => countRecords(Subscriber, subscriberFilter({ q, status: s }))),
    );
    const matching = counts.reduce((sum, n) => sum + n, 0);
    const active = counts[statuses.indexOf('active')] ?? 0;
    return { matching, active };
  }
  const [matching, active] = await Promise.all([
    countRecords(Subscriber, status ? { status } : {}),
    status === null || status === 'active' ? countRecords(Subscriber, { status: 'active' }) : 0,
  ]);
  return { matching, active };
}

/**
 * A search reads its first SEARCH_AHEAD matches at once (newest first): when there are no more,
 * they are its counts and its pages, one pass over the list in all.
 */
export const SEARCH_AHEAD = 1000;

/**
 * One page of the admin's list, newest first, with its counts. Without a search: indexed counts
 * and one page. With one (decision 044, "The subscriber list at 500,000"): the first
 * SEARCH_AHEAD matches are read before anything is counted; a search with no more takes its
 * counts and every page from them (one pass over the list); a larger one counts
 * (`countSubscriberList`, one pass, cached for its other pages).
 */
export async function pageSubscriberList(
  query: SubscriberQuery & { page: number; perPage: number },
): Promise<{ list: NumberedPage<SubscriberJSON>; counts: SubscriberListCounts }> {
  const filter = subscriberFilter(query);
  const spec = { filter, sort: SUBSCRIBERS_NEWEST_FIRST, fields: LIST_FIELDS };
  if (!query.q?.trim()) {
    const counts = await countSubscriberList(query);
    const found = await findNumberedPage(Subscriber, {
      ...spec,
      page: query.page,
      perPage: query.perPage,
      total: counts.matching,
    });
    return { list: { ...found, items: found.items.map(toSubscriberJSON) }, counts };
  }
  let counts: SubscriberListCounts | null = null;
  const { matches, ...found } = await findSearchPage(Subscriber, {
    ...spec,
    page: query.page,
    perPage: query.perPage,
    ahead: SEARCH_AHEAD,
    count: async () => (counts = await countSubscriberList(query)).matching,
  });
  counts ??= {
    matching: found.total,
    active: (matches ?? []).filter((s) => s.status === 'active').length,
  };
  return { list: { ...found, items: found.items.map(toSubscriberJSON) }, counts };
}

/**
 * Every subscriber matching the search and status filter, newest first, streamed with a
 * projection (the CSV export and the copy-all addresses): memory does not grow with the list.
 */
export async function* streamSubscribers(
  query: SubscriberQuery,
): AsyncGenerator<Pick<SubscriberJSON, 'id' | 'name' | 'email' | 'status' | 'createdAt'>> {
  const docs = streamRecords(Subscriber, {
    filter: subscriberFilter(query),
    sort: SUBSCRIBERS_NEWEST_FIRST,
    fields: LIST_FIELDS,
    batchSize: 1000,
  });
  for await (const doc of docs) yield toSubscriberJSON(doc);
}
