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

/**
 * The page numbers a list's links offer around `page`: the first, the last, the current one and
 * `around` on each side of it, in order, a gap (`null`, drawn as "…") where numbers are left
 * out. With `fillGaps`, a gap of a single page shows that page instead (1 2 3 rather than
 * 1 … 3). The site's pages use 1 neighbour and fill gaps (1 … 4 5 6 … 20), the back office 2
 * neighbours without filling.
 */
export function pageWindow(
  page: number,
  pageCount: number,
  { around = 1, fillGaps = false }: { around?: number; fillGaps?: boolean } = {},
): (number | null)[] {
  const shown = new Set([1, pageCount]);
  for (let n = page - around; n <= page + around; n++) shown.add(n);
  const out: (number | null)[] = [];
  for (const n of [...shown].filter((n) => n >= 1 && n <= pageCount).sort((a, b) => a - b)) {
    const previous = out[out.length - 1];
    if (typeof previous === 'number' && n - previous === 2 && fillGaps) out.push(n - 1);
    else if (typeof previous === 'number' && n - previous > 1) out.push(null);
    out.push(n);
  }
  return out;
}

/** What a paged page tells its `meta` (canonical, prev and next). */
export type Paging = {
  params: ListParams;
  page: number;
  pageCount: number;
  /** The page parameter's name (`page` unless the URL holds several lists). */
  pageName?: string;
};
