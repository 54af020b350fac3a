import { countSubscribers } from '~/models/subscriber.server';
import { pageSubscriberList, type SubscriberQuery } from '~/models/subscriber-list.server';
import { SUBSCRIBER_STATUSES, type SubscriberStatus } from '~/types/entities';

/** Rows per page of the subscriber table. */
export const SUBSCRIBERS_PER_PAGE = 50;

/** The list's search (`q`, at most 200 characters) and status filter from a URL's query. */
export function subscriberQueryOf(search: URLSearchParams): {
  q: string;
  status: SubscriberStatus | null;
} {
  const q = (search.get('q') ?? '').trim().slice(0, 200);
  const raw = search.get('status');
  const status = SUBSCRIBER_STATUSES.find((s) => s === raw) ?? null;
  return { q, status };
}

/**
 * The subscribers tab's data: one page of the matching subscribers (newest first), how many
 * active subscribers match (the count line's `{n} subscribers`, over all pages) and how many
 * are active on the whole list (`filtered from {total}`). Indexed counts and one page, so the
 * cost does not grow with the list; a search is one pass over it (decision 044, "The subscriber
 * list at 500,000").
 */
export async function loadSubscribersTab(query: SubscriberQuery & { page: number }) {
  const { q, status } = query;
  // Without a search, the list's own count of active subscribers is the whole list's.
  const wholeListActive = !q && (status === null || status === undefined || status === 'active');
  const [{ list, counts }, otherTotal] = await Promise.all([
    pageSubscriberList({ q, status, page: query.page, perPage: SUBSCRIBERS_PER_PAGE }),
    wholeListActive ? null : countSubscribers('active'),
  ]);
  return {
    list,
    activeMatches: counts.active,
    totalActive: otherTotal ?? counts.active,
    /** Matching subscribers who get no newsletter (pending, unsubscribed or bounced). */
    others: counts.matching - counts.active,
  };
}
