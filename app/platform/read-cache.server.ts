/**
 * A read cache for the model functions, invalidated by every write.
 *
 * A model function opts in with an explicit call:
 *
 *   cachedRead(['tracks', 'list', { filter, sort, limit }], async () =>
 *     (await Track.find(filter).sort(sort).limit(limit).lean()).map(toTrackJSON))
 *
 * The key is what the function was asked: the collection the read touches first, then a name
 * for the read and every value the query is built from (filter, sort, projection, limit...).
 * Two reads share an entry only when their keys serialise to the same JSON, so whatever changes
 * the query must be in the key. The read must touch that one collection only (a function that
 * reads two collections makes two cached reads), so a write to a collection invalidates exactly
 * the entries whose key starts with its name.
 *
 * When the app owns the embedded store (the default set-up, no MONGODB_URI), every command that
 * changes data reaches that in-process store, whichever client sent it: the site's own admin
 * pages and /api, and also scripts (create-admin, restore, tests) that connect to the running
 * store. The store reports the collections each such command touched (`noteDataWrite`, wired in
 * db.server.ts). With an external MongoDB (or a store another process owns) other processes
 * write too: there every entry also carries a stamp of the shared data version
 * (data-version.server.ts, decision 039) and is used only while `isFresh` says so: while the
 * version every writer bumps is unchanged, or for half a second when it cannot be read.
 * This process's own writes still drop the entries of their collections at once.
 *
 * Only content collections are remembered (content-collections.server.ts, decision 043): a
 * write to any other bumps no version, so a read of one could not be judged fresh on another
 * instance; it goes to the database every time. In shared mode a read first asks
 * `versionCheck` (on the request path, one poll shared by every request): a late version makes
 * a read wait one round trip, it does not turn the cache off.
 *
 * **Built values** (`builtValues`, below): a whole value built from many reads (a podcast feed,
 * the sitemap: decision 045), kept until any content write, one build per key at a time.
 *
 * Results are deep-copied in and out, so callers may mutate what they get. A read that overlaps
 * a write to its collection is not stored. At most MAX_ENTRIES entries are kept (least recently
 * used out first).
 */

import { isContentCollection } from './content-collections.server';
import {
  freshnessMode,
  isFresh,
  type Stamp,
  stamp,
  versionCheck,
  versionTrusted,
} from './data-version.server';
import { Lru } from './lru.server';
import { processSingleton } from './process-state.server';

/** Collections whose writes cannot change what a page shows (per-visitor state). */
const IGNORED_COLLECTIONS = new Set(['sessions', 'rate_limits']);

const MAX_ENTRIES = 500;

/** The collection first, then whatever the read was asked. */
export type ReadKey = readonly [collection: string, ...asked: unknown[]];

type CacheState = {
  enabled: boolean;
  /** Bumped by a write whose collections are unknown (it may have touched any). */
  everyGeneration: number;
  /** Bumped by each write to a collection. */
  generations: Map<string, number>;
  entries: Lru<string, { collection: string; value: unknown; made: Stamp | null }>;
  hits: number;
  misses: number;
};

declare module './process-state.server' {
  interface ProcessStateRegistry {
    // The driver's command monitor, attached once, drops entries here (process-state.server.ts).
    readCache: CacheState;
  }
}

const state = processSingleton('readCache', (): CacheState => ({
  enabled: false,
  everyGeneration: 0,
  generations: new Map(),
  entries: new Lru({ maxEntries: MAX_ENTRIES }),
  hits: 0,
  misses: 0,
}));

const generationOf = (collection: string) =>
  `${state.everyGeneration}:${state.generations.get(collection) ?? 0}`;

/**
 * Report a write; `collections` are the names it touched. No list, an empty list or an empty
 * name means "unknown": everything is invalidated.
 */
export function noteDataWrite(collections?: readonly string[]): void {
  if (!collections || collections.length === 0 || collections.includes('')) {
    state.everyGeneration += 1;
    state.entries.clear();
    return;
  }
  const touched = new Set(collections.filter((c) => !IGNORED_COLLECTIONS.has(c)));
  if (touched.size === 0) return;
  for (const collection of touched)
    state.generations.set(collection, (state.generations.get(collection) ?? 0) + 1);
  for (const [key, entry] of state.entries.entries())
    if (touched.has(entry.collection)) state.entries.delete(key);
}

/** Turn the cache on (only when every write is seen: see above). */
export function enableDataCache(): void {
  state.enabled = true;
}

export function disableDataCache(): void {
  state.enabled = false;
  state.entries.clear();
}

export function dataCacheStats() {
  return {
    enabled: state.enabled,
    entries: state.entries.size,
    hits: state.hits,
    misses: state.misses,
  };
}

/** Deep copy of plain data; class instances (ObjectId, Buffer, Decimal128) are immutable here. */
export function copyData<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => copyData(v)) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = copyData(v);
  return out as T;
}

function keyReplacer(_key: string, value: unknown): unknown {
  if (value instanceof RegExp) return { $regex: value.source, $flags: value.flags };
  if (typeof value === 'bigint') return `${value.toString()}n`;
  if (value === undefined) return { $undefined: true };
  return value;
}

/**
 * Run `read`, or answer a copy of what the same read (same `key`) answered since the last
 * write to `key[0]`. See the top of this file for what the key must hold.
 */
export async function cachedRead<T>(key: ReadKey, read: () => Promise<T>): Promise<T> {
  const collection = key[0];
  if (!state.enabled || IGNORED_COLLECTIONS.has(collection) || !isContentCollection(collection))
    return read();
  const shared = freshnessMode() === 'shared';
  if (shared) {
    // The version is checked on the request path (decision 043), not only by the timer.
    const check = versionCheck();
    if (check) await check;
    // Still no trusted shared version (its read fails or hangs): every read goes to the
    // database (the page cache's short fallback lifetime must count from fresh data, 039).
    if (!versionTrusted()) return read();
  }
  const id = JSON.stringify(key, keyReplacer);
  let hit = state.entries.get(id);
  if (hit && shared && !(hit.made && isFresh(hit.made, undefined, { ignoreLocal: true }))) {
    state.entries.delete(id);
    hit = undefined;
  }
  if (hit) {
    state.hits += 1;
    return copyData(hit.value as T);
  }
  state.misses += 1;
  const generation = generationOf(collection);
  // Taken before the read: a write elsewhere after this moment changes the shared version.
  const made = shared ? stamp() : null;
  const value = await read();
  // A write that started or ended while we were reading may not be in what we read.
  if (state.enabled && generation === generationOf(collection) && (!shared || made?.shared)) {
    state.entries.set(id, { collection, value: copyData(value), made });
  }
  return value;
}

/**
 * A cache of values built from many reads and the same for everyone (the podcast feed and its
 * files' sizes, the sitemap: decision 045): what `cachedRead` is for one query, for a value
 * whose reads span collections. So it is kept under the data version's rule rather than one
 * collection's (data-version.server.ts, decision 039): until any content write this process
 * notes, another instance's within the poll. The stamp is taken before `make` starts, so a
 * write during the build makes the result stale at once. One build per key at a time:
 * concurrent callers of a missing key share it (while no write has happened since it started).
 * Values are shared, not copied: callers must not change them. At most `maxEntries` keys are
 * kept (least recently used out first).
 */
export function builtValues<T>(maxEntries = 16) {
  const entries = new Lru<string, { value: T; made: Stamp }>({ maxEntries });
  const building = new Map<string, { build: Promise<T>; made: Stamp | null }>();
  return {
    async get(key: string, make: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && isFresh(hit.made)) return hit.value;
      if (hit) entries.delete(key);
      // A build under way is shared while no write has happened since it started.
      const pending = building.get(key);
      if (pending?.made && isFresh(pending.made)) return pending.build;
      const made = stamp();
      const build = make().then((value) => {
        if (made && isFresh(made)) entries.set(key, { value, made });
        return value;
      });
      const own = { build, made };
      building.set(key, own);
      try {
        return await build;
      } finally {
        if (building.get(key) === own) building.delete(key);
      }
    },
    clear(): void {
      entries.clear();
    },
  };
}
