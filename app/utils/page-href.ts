/**
 * The URLs of a paged list's pages (issue 37), for its links and for its `<link rel>` tags:
 * one URL per page, the list's own parameters in a fixed order, and page 1 without `?page=1`.
 * Client-safe (meta functions and components run in the browser too).
 */

/**
 * A list's parameters besides its page: absent, empty or null ones are left out (so another
 * list's page parameter on the same URL, as on /shows, is null at its first page).
 */
export type ListParams = Readonly<Record<string, string | number | null | undefined>>;

/** `?page=N` as a positive integer (1 when absent or not one). */
export function pageParam(search: URLSearchParams, name = 'page'): number {
  const raw = search.get(name);
  if (!raw || !/^\d{1,6}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

/** The URL of page `page` of the list at `path` (`pageName`: its page parameter, `page`). */
export function pageHref(path: string, params: ListParams, page = 1, pageName = 'page'): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (name === pageName || value === null || value === undefined || value === '') continue;
    search.set(name, String(value));
  }
  if (page > 1) search.set(pageName, String(page));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** What a paged page tells its `meta` (canonical, prev and next). */
export type Paging = {
  params: ListParams;
  page: number;
  pageCount: number;
  /** The page parameter's name (`page` unless the URL holds several lists). */
  pageName?: string;
};
