import mongoose, { type Model, type QueryFilter } from 'mongoose';

import { cachedRead } from '~/platform/read-cache.server';
import { sign, verify } from '~/platform/signing.server';

/**
 * Pages of a collection (docs/architecture.md, "Lists at any size"): no request path reads a whole
 * collection. Two ways to ask for a page, both over a sort that ends in the unique `id`, with an
 * index behind it (the model declares `Schema.index(sort)` for each sort it pages):
 *
 * - **Numbered pages** for HTML lists (`?page=N`): real links that work without JavaScript,
 *   bookmarkable, with a page count. `findNumberedPage` skips `(page - 1) * perPage` records in
 *   index order.
 * - **Keyset cursors** for the JSON API (`?limit=20&cursor=…`): the cursor holds the sort values
 *   of the last record returned (signed, bound to its list), and the next page starts strictly
 *   after them, so records inserted or deleted between requests neither repeat nor skip one
 *   that existed throughout.
 *   `findKeysetPage` answers `next: null` on the last page.
 *
 * Both go through the read cache (the spec of the read is its key).
 */

/** The most records one page may hold (the API's `limit` is clamped to it). */
export const MAX_PAGE_LIMIT = 100;

/** A sort of one or more fields whose last field is the unique `id`, e.g. `{ createdAt: -1, id: -1 }`. */
export type PageSort = Readonly<Record<string, 1 | -1>>;

type Filter = Record<string, unknown>;

export type NumberedPage<T> = {
  items: T[];
  /** 1-based; clamped to the last page (an out-of-range `?page` shows the last one). */
  page: number;
  pageCount: number;
  /** Records matching the filter (all pages). */
  total: number;
  perPage: number;
};

export type KeysetPage<T> = {
  items: T[];
  /** The cursor of the page after this one, or null when this is the last. */
  next: string | null;
};

/**
 * The API's `limit` parameter: null when absent (the caller answers in full, as documented),
 * a number 1..MAX_PAGE_LIMIT, or 'invalid'.
 */
export function limitParam(search: URLSearchParams): number | null | 'invalid' {
  const raw = search.get('limit');
  if (raw === null) return null;
  if (!/^\d{1,6}$/.test(raw)) return 'invalid';
  const n = Number(raw);
  if (n < 1) return 'invalid';
  return Math.min(n, MAX_PAGE_LIMIT);
}

// --- cursors ----------------------------------------------------------------------------

/** A Date travels as `{ $d: iso }` so it decodes as a Date again (string keys stay strings). */
type Encoded = string | number | boolean | null | { $d: string };

function encodeValue(v: unknown): Encoded {
  if (v instanceof Date) return { $d: v.toISOString() };
  if (v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null)
    return v;
  return String(v);
}

function decodeValue(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && '$d' in v && typeof v.$d === 'string') {
    const d = new Date(v.$d);
    if (Number.isNaN(d.getTime())) throw new Error('bad date');
    return d;
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null)
    return v;
  throw new Error('bad value');
}

/**
 * A cursor's signature (the signing module's `list-cursor` purpose, decision 049: rotation, any
 * secret verifies) of the list it belongs to and its values, 22 base64url characters. A cursor
 * is opaque (docs/api.md): one forged, altered or issued by another list is refused, not read
 * as a position.
 */
const CURSOR_MAC_LENGTH = 22;
const cursorMessage = (list: string, payload: string) => `${list}\n${payload}`;

/**
 * The cursor after `record` in list `list` (its collection's name): its values of the sort's
 * fields, base64url JSON, and the signature.
 */
export function encodeCursor(
  list: string,
  sort: PageSort,
  record: Record<string, unknown>,
): string {
  const values = Object.keys(sort).map((field) => encodeValue(record[field]));
  const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
  return `${payload}.${sign('list-cursor', cursorMessage(list, payload), { length: CURSOR_MAC_LENGTH })}`;
}

/** The sort values in a cursor, or null when it is not one list `list` issued for this sort. */
export function decodeCursor(list: string, sort: PageSort, cursor: string): unknown[] | null {
  const m = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  if (!m) return null;
  const [, payload, mac] = m;
  const signed = verify('list-cursor', cursorMessage(list, payload!), mac!, {
    length: CURSOR_MAC_LENGTH,
  });
  if (!signed) return null;
  try {
    const values: unknown = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    if (!Array.isArray(values) || values.length !== Object.keys(sort).length) return null;
    const decoded = values.map(decodeValue);
    const idValue = decoded[decoded.length - 1];
    return typeof idValue === 'number' && Number.isSafeInteger(idValue) ? decoded : null;
  } catch {
    return null;
  }
}

/**
 * The records strictly after `values` in `sort` order, for `{ a: -1, id: -1 }`:
 * `{ a: { $lte: va }, $or: [{ a: { $lt: va } }, { a: va, id: { $lt: vid } }] }`.
 * The leading range on the first field lets an index on the sort bound the scan (on MongoDB and
 * on the embedded store); the `$or` settles the ties. The operators are `mongoose.trusted`: the
 * connection sanitises filters (`sanitizeFilter`), which would otherwise turn them into values.
 */
export function afterFilter(sort: PageSort, values: readonly unknown[]): Filter {
  const fields = Object.keys(sort);
  const op = (field: string, strict: boolean) =>
    sort[field] < 0 ? (strict ? '$lt' : '$lte') : strict ? '$gt' : '$gte';
  const branches: Filter[] = fields.map((field, i) => {
    const branch: Filter = {};
    for (let j = 0; j < i; j++) branch[fields[j]] = values[j];
    branch[field] = mongoose.trusted({ [op(field, true)]: values[i] });
    return branch;
  });
  if (fields.length === 1) return branches[0];
  return { [fields[0]]: mongoose.trusted({ [op(fields[0], false)]: values[0] }), $or: branches };
}

function withFilter(filter: Filter, extra: Filter): Filter {
  if (Object.keys(filter).length === 0) return extra;
  return { $and: [filter, extra] };
}

/**
 * A list as the API pages or streams it: the model, its filter, its sort (ending in `id`, with an
 * index behind it) and the fields it prints (a projection). Models export one per list.
 */
export type RecordList<T> = {
  model: Model<T>;
  filter?: Filter;
  sort: PageSort;
  fields?: readonly string[];
};

type PageSpec<K extends string> = {
  filter?: Filter;
  sort: PageSort;
  /** A projection: only these fields (the sort's fields are always included). */
  fields?: readonly K[];
};

function projection(spec: PageSpec<string>): Record<string, 1> | undefined {
  if (!spec.fields) return undefined;
  const fields = new Set([...spec.fields, ...Object.keys(spec.sort)]);
  return Object.fromEntries([...fields].map((f) => [f, 1]));
}

/**
 * Records matching the filter; an empty filter is the collection's count from its metadata
 * (O(1) on both stores), any other an indexed `countDocuments`.
 */
export function countRecords<T>(model: Model<T>, filter: Filter = {}): Promise<number> {
  return cachedRead([model.collection.collectionName, 'count', filter], () =>
    Object.keys(filter).length === 0
      ? model.estimatedDocumentCount().exec()
      : model.countDocuments(filter as QueryFilter<T>).exec(),
  );
}

/**
 * The back office's tables: `(options) =>` one `?page=N` page of `model` in `sort` order (an
 * index behind it), each record as `toJSON` makes it.
 */
export function numberedPagesOf<T, J>(model: Model<T>, sort: PageSort, toJSON: (doc: T) => J) {
  return async (options: { page: number; perPage: number }): Promise<NumberedPage<J>> => {
    const found = await findNumberedPage(model, {
      sort,
      page: options.page,
      perPage: options.perPage,
    });
    return { ...found, items: found.items.map(toJSON) };
  };
}

/**
 * Page `page` (1-based) of `perPage` records, with the total and the page count. `total`, when
 * the caller has already counted the filter's records, saves the count.
 */
export async function findNumberedPage<T, K extends string = string>(
  model: Model<T>,
  spec: PageSpec<K> & { page: number; perPage: number; total?: number },
): Promise<NumberedPage<T>> {
  const filter = spec.filter ?? {};
  const total = spec.total ?? (await countRecords(model, filter));
  const pageCount = Math.max(1, Math.ceil(total / spec.perPage));
  const page = Math.min(Math.max(1, Math.floor(spec.page)), pageCount);
  const skip = (page - 1) * spec.perPage;
  const key = [
    model.collection.collectionName,
    'page',
    { filter, sort: spec.sort, fields: spec.fields ?? null, skip, limit: spec.perPage },
  ] as const;
  const items =
    total === 0
      ? []
      : await cachedRead(key, () =>
          model
            .find(filter as QueryFilter<T>, projection(spec))
            .sort({ ...spec.sort })
            .skip(skip)
            .limit(spec.perPage)
            .lean<T[]>()
            .exec(),
        );
  return { items, page, pageCount, total, perPage: spec.perPage };
}

/**
 * `findNumberedPage` for a filter whose count is a pass over the collection (a substring
 * search, which no index answers). The first `ahead` matches (and one more) are read at once,
 * before anything is counted: when the search has no more, they are its count and its pages
 * (one pass over the collection in all, not a pass to count and another to find the page).
 * Otherwise `count()` gives the total (cached for the search's other pages). Pages within the
 * first `ahead` matches are slices of that one read (a cached read: paging a search costs
 * nothing more); later pages are read as numbered pages. `matches` holds what was read ahead
 * when it is every match (for counts the caller derives from them), else null.
 */
export async function findSearchPage<T, K extends string = string>(
  model: Model<T>,
  spec: PageSpec<K> & {
    page: number;
    perPage: number;
    ahead: number;
    count: () => Promise<number>;
  },
): Promise<NumberedPage<T> & { matches: T[] | null }> {
  const filter = spec.filter ?? {};
  const { perPage } = spec;
  const ahead = Math.max(perPage, spec.ahead);
  const page = Math.max(1, Math.floor(spec.page));
  if (page * perPage <= ahead) {
    const key = [
      model.collection.collectionName,
      'page',
      { filter, sort: spec.sort, fields: spec.fields ?? null, skip: 0, limit: ahead + 1 },
    ] as const;
    const found = await cachedRead(key, () =>
      model
        .find(filter as QueryFilter<T>, projection(spec))
        .sort({ ...spec.sort })
        .limit(ahead + 1)
        .lean<T[]>()
        .exec(),
    );
    const whole = found.length <= ahead;
    const total = whole ? found.length : await spec.count();
    const pageCount = Math.max(1, Math.ceil(total / perPage));
    const shown = Math.min(page, pageCount);
    const items = found.slice((shown - 1) * perPage, shown * perPage);
    return { items, page: shown, pageCount, total, perPage, matches: whole ? found : null };
  }
  const total = await spec.count();
  return { ...(await findNumberedPage(model, { ...spec, total })), matches: null };
}

/**
 * The records at positions `skip`..`skip + limit - 1` of the sorted list (a skip in index
 * order, as `findNumberedPage` does, without the page alignment), with the matching total:
 * for a reader that addresses records by position (the player's queue, issue 37).
 */
export async function findSlice<T, K extends string = string>(
  model: Model<T>,
  spec: PageSpec<K> & { skip: number; limit: number },
): Promise<{ items: T[]; total: number }> {
  const filter = spec.filter ?? {};
  const total = await countRecords(model, filter);
  const skip = Math.max(0, Math.floor(spec.skip));
  const limit = Math.min(Math.max(1, Math.floor(spec.limit)), MAX_PAGE_LIMIT);
  if (skip >= total) return { items: [], total };
  const key = [
    model.collection.collectionName,
    'page',
    { filter, sort: spec.sort, fields: spec.fields ?? null, skip, limit },
  ] as const;
  const items = await cachedRead(key, () =>
    model
      .find(filter as QueryFilter<T>, projection(spec))
      .sort({ ...spec.sort })
      .skip(skip)
      .limit(limit)
      .lean<T[]>()
      .exec(),
  );
  return { items, total };
}

/**
 * Where `record` stands in `sort` order among the records matching `filter` (0 for the first):
 * an indexed count of the records before it (those after it in the reversed sort).
 */
export function positionOf<T>(
  model: Model<T>,
  spec: { filter?: Filter; sort: PageSort },
  record: Record<string, unknown>,
): Promise<number> {
  const reversed = Object.fromEntries(
    Object.entries(spec.sort).map(([field, dir]) => [field, dir === 1 ? -1 : 1]),
  ) as PageSort;
  const values = Object.keys(spec.sort).map((field) => record[field]);
  return countRecords(model, withFilter(spec.filter ?? {}, afterFilter(reversed, values)));
}

/**
 * Up to `limit` records after `cursor` (from the start when null). Throws `BadCursorError`
 * for a cursor that is not one of this sort's.
 */
export async function findKeysetPage<T, K extends string = string>(
  model: Model<T>,
  spec: PageSpec<K> & { limit: number; cursor: string | null },
): Promise<KeysetPage<T>> {
  const base = spec.filter ?? {};
  let filter = base;
  const list = model.collection.collectionName;
  if (spec.cursor !== null) {
    const values = decodeCursor(list, spec.sort, spec.cursor);
    if (!values) throw new BadCursorError();
    filter = withFilter(base, afterFilter(spec.sort, values));
  }
  const limit = Math.min(Math.max(1, spec.limit), MAX_PAGE_LIMIT);
  const key = [
    model.collection.collectionName,
    'keyset',
    { filter, sort: spec.sort, fields: spec.fields ?? null, limit: limit + 1 },
  ] as const;
  const found = await cachedRead(key, () =>
    model
      .find(filter as QueryFilter<T>, projection(spec))
      .sort({ ...spec.sort })
      .limit(limit + 1)
      .lean<T[]>()
      .exec(),
  );
  const items = found.slice(0, limit);
  const last = items[items.length - 1] as Record<string, unknown> | undefined;
  const next = found.length > limit && last ? encodeCursor(list, spec.sort, last) : null;
  return { items, next };
}

/** A cursor that this list did not issue (answered 400 'Invalid cursor'). */
export class BadCursorError extends Error {
  constructor() {
    super('Invalid cursor');
    this.name = 'BadCursorError';
  }
}

/**
 * Every record matching the filter in `sort` order, as a stream (a cursor with a projection):
 * for what must cover everything (exports, feeds, sitemaps, the API without `limit`) without
 * holding the collection in memory.
 */
export function streamRecords<T, K extends string = string>(
  model: Model<T>,
  spec: PageSpec<K> & { batchSize?: number; skip?: number; limit?: number },
): AsyncIterable<T> {
  let query = model
    .find((spec.filter ?? {}) as QueryFilter<T>, projection(spec))
    .sort({ ...spec.sort });
  // A slice of the stream (a child sitemap): skips in index order, like a numbered page.
  if (spec.skip) query = query.skip(spec.skip);
  if (spec.limit) query = query.limit(spec.limit);
  return query
    .lean<T[]>()
    .cursor({ batchSize: spec.batchSize ?? 500 }) as unknown as AsyncIterable<T>;
}
