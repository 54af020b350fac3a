import { SUBSCRIBER_STATUSES } from '~/types/entities';

import { pageHref, pageParam } from './page-href';

/**
 * The admin lists keep their state in the URL: tab or filter (`?tab=featured`,
 * `?category=NEWS`), search (`?q=`) and page (`?page=N`). Their child dialogs (new, edit,
 * delete) carry it along, so closing or finishing a dialog goes back to the very page of the
 * list the admin came from. Every list URL is built here from a fixed path and validated
 * parameters, so it can only lead back into the back office.
 */

const params = (url: string) => new URL(url, 'http://x').searchParams;

const oneOf = (value: string | null, allowed: readonly string[]) =>
  value && allowed.includes(value) ? value : null;

/** A list's search text as its loader reads it (trimmed, at most 200 characters). */
export const searchText = (search: URLSearchParams) => (search.get('q') ?? '').trim().slice(0, 200);

/** The URL of a list with what `url` carries of its tab/filter, search and page. */
function listUrlOf(
  path: string,
  url: string,
  filters: Record<string, readonly string[]> = {},
  options: { search?: boolean } = {},
) {
  const search = params(url);
  const kept: Record<string, string | null> = {};
  for (const [name, allowed] of Object.entries(filters))
    kept[name] = oneOf(search.get(name), allowed);
  if (options.search) kept.q = searchText(search) || null;
  return pageHref(path, kept, pageParam(search));
}

export const TRACK_TABS = ['featured'] as const;
export const tracksListUrl = (url: string) =>
  listUrlOf('/admin/tracks', url, { tab: TRACK_TABS }, { search: true });

export const galleryListUrl = (url = '') => listUrlOf('/admin/gallery', url);

export const BLOG_TAB_CATEGORIES = ['NEWS', 'EVENTS', 'REVIEWS'] as const;
export const blogListUrl = (url: string) =>
  listUrlOf('/admin/blog', url, { category: BLOG_TAB_CATEGORIES });

export const showsListUrl = (url = '') => listUrlOf('/admin/shows', url);

export const messagesListUrl = (url = '') => listUrlOf('/admin/messages', url);

/** The query string to append to links to a list's children (`?tab=featured&page=2` or ''). */
export const keepSearch = (listUrl: string) => {
  const i = listUrl.indexOf('?');
  return i === -1 ? '' : listUrl.slice(i);
};

export const SUBSCRIBER_STATUS_FILTERS = SUBSCRIBER_STATUSES;

/** The subscriber list, keeping the search, status filter and page the admin came from. */
export const subscribersListUrl = (url: string) =>
  listUrlOf('/admin/newsletter', url, { status: SUBSCRIBER_STATUS_FILTERS }, { search: true });
