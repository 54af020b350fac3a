import {
  BadCursorError,
  findKeysetPage,
  limitParam,
  MAX_PAGE_LIMIT,
  type RecordList,
  streamRecords,
} from '~/models/paging.server';

import { apiError, apiJson, apiJsonArrayStream } from './api.server';

/**
 * The list endpoints of the API (GET /api/tracks, /api/blog, /api/gallery, /api/shows,
 * /api/admin/subscribers, /api/admin/messages; docs/api.md, decision 045):
 *
 * - with `limit` and/or `cursor`: one page of a keyset walk (`findKeysetPage`), as the same JSON
 *   array, and `Link: <…>; rel="next"` while there is more;
 * - without them: the whole list as documented before paging existed, streamed from a cursor
 *   (`apiJsonArrayStream`), so memory does not grow with the collection.
 */

/** Records per page when a `cursor` comes without a `limit`. */
export const DEFAULT_API_LIMIT = 20;

export const LIMIT_ERROR = `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}`;
export const CURSOR_ERROR = 'Invalid cursor';
/** `?limit=1&limit=2`: which one was meant is not for the server to guess. */
export const repeatedError = (name: string) => `${name} must be given once`;

export type ApiListOptions<T> = {
  /**
   * The whole list in its documented order, when that is not the list's keyset sort (shows are
   * listed by time within a day; pages go by id within a day). Defaults to `streamRecords`.
   */
  stream?: () => AsyncIterable<T>;
  /** Headers of the answer (a public list's `publicCacheHeaders`). */
  headers?: HeadersInit;
};

/** The page or stream parameters of a list request, or a thrown 400. */
export function listParams(request: Request): { limit: number; cursor: string | null } | null {
  const search = new URL(request.url).searchParams;
  for (const name of ['limit', 'cursor']) {
    if (search.getAll(name).length > 1) throw apiError(400, repeatedError(name));
  }
  const limit = limitParam(search);
  if (limit === 'invalid') throw apiError(400, LIMIT_ERROR);
  const cursor = search.get('cursor');
  if (limit === null && cursor === null) return null;
  return { limit: limit ?? DEFAULT_API_LIMIT, cursor };
}

/**
 * The request's own path and query with `limit` and `cursor` set: the next page's link.
 * Relative (RFC 8288 resolves it against the request's URL), so it holds behind any proxy.
 */
export function nextPageHref(request: Request, limit: number, cursor: string): string {
  const url = new URL(request.url);
  url.searchParams.set('limit', String(limit));
  url.searchParams.set('cursor', cursor);
  return `${url.pathname}${url.search}`;
}

/** A list endpoint's answer: a page with its Link header, or the whole list streamed. */
export async function apiListResponse<T>(
  request: Request,
  list: RecordList<T>,
  toJSON: (record: T) => unknown,
  options: ApiListOptions<T> = {},
): Promise<Response> {
  const params = listParams(request);
  const headers = new Headers(options.headers);
  if (params === null) {
    const records =
      options.stream?.() ??
      streamRecords(list.model, { filter: list.filter, sort: list.sort, fields: list.fields });
    return apiJsonArrayStream(request, records, toJSON, { headers });
  }
  let page;
  try {
    page = await findKeysetPage(list.model, {
      filter: list.filter,
      sort: list.sort,
      fields: list.fields,
      limit: params.limit,
      cursor: params.cursor,
    });
  } catch (error) {
    if (error instanceof BadCursorError) throw apiError(400, CURSOR_ERROR);
    throw error;
  }
  if (page.next !== null)
    headers.set('Link', `<${nextPageHref(request, params.limit, page.next)}>; rel="next"`);
  return apiJson(page.items.map(toJSON), { headers });
}
