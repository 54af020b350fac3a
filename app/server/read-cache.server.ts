import mongoose from 'mongoose';

/**
 * A read cache for the public pages, invalidated by every write.
 *
 * When the app owns the embedded store (the default set-up, no MONGODB_URI), every command that
 * changes data reaches that in-process store, whichever client sent it: the site's own admin
 * pages and /api, and also scripts (create-admin, restore, tests) that connect to the running
 * store. The store reports each such command (`onWrite`, wired in db.server.ts) and we bump a
 * generation number; cached query results belong to one generation, so after any write the next
 * read goes to the database. With an external MongoDB other processes can write unseen, so the
 * cache stays off there.
 *
 * What is cached: lean `find`/`findOne` results and counts/distinct of mongoose queries
 * (the model functions), keyed by collection, operation, filter, options and projection.
 * Results are deep-copied in and out, so callers may mutate what they get.
 */

/** Collections whose writes cannot change what a page shows (per-visitor state). */
const IGNORED_COLLECTIONS = new Set(['sessions', 'rate_limits']);

const CACHEABLE_OPS = new Set([
  'find',
  'findOne',
  'countDocuments',
  'estimatedDocumentCount',
  'distinct',
]);

const MAX_ENTRIES = 500;

type CacheState = {
  enabled: boolean;
  installed: boolean;
  generation: number;
  entries: Map<string, { generation: number; value: unknown }>;
  hits: number;
  misses: number;
};

declare global {
  var __nightShoreDataCache: CacheState | undefined;
}

const state: CacheState = (globalThis.__nightShoreDataCache ??= {
  enabled: false,
  installed: false,
  generation: 0,
  entries: new Map(),
  hits: 0,
  misses: 0,
});

/** Report a write; `collections` are the names it touched (all, when unknown). */
export function noteDataWrite(collections?: readonly string[]): void {
  if (collections && collections.length > 0 && collections.every((c) => IGNORED_COLLECTIONS.has(c)))
    return;
  state.generation += 1;
  state.entries.clear();
}

export function dataGeneration(): number {
  return state.generation;
}

/** Turn the cache on (only when every write is seen: see above). */
export function enableDataCache(): void {
  state.enabled = true;
  installQueryCache();
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
  return value;
}

type AnyQuery = mongoose.Query<unknown, unknown>;
type QueryInternals = {
  op?: string;
  model?: { collection?: { name?: string } };
  _fields?: unknown;
  _mongooseOptions?: { lean?: unknown; populate?: unknown };
  _distinct?: unknown;
};

function cacheKey(query: AnyQuery): string | null {
  const q = query as unknown as QueryInternals;
  const op = q.op;
  if (!op || !CACHEABLE_OPS.has(op)) return null;
  const collection = q.model?.collection?.name;
  if (!collection || IGNORED_COLLECTIONS.has(collection)) return null;
  const mongooseOptions = q._mongooseOptions ?? {};
  if (mongooseOptions.populate) return null;
  if ((op === 'find' || op === 'findOne') && !mongooseOptions.lean) return null;
  const options = query.getOptions();
  if (options.session) return null;
  try {
    return JSON.stringify(
      [
        collection,
        op,
        query.getFilter(),
        options,
        q._fields ?? null,
        mongooseOptions.lean,
        q._distinct ?? null,
      ],
      keyReplacer,
    );
  } catch {
    return null;
  }
}

function installQueryCache(): void {
  if (state.installed) return;
  state.installed = true;
  const proto = mongoose.Query.prototype as unknown as {
    exec: (this: AnyQuery, op?: unknown) => Promise<unknown>;
  };
  const originalExec = proto.exec;
  proto.exec = async function cachedExec(this: AnyQuery, op?: unknown) {
    if (!state.enabled || op !== undefined) return originalExec.call(this, op);
    const key = cacheKey(this);
    if (key === null) return originalExec.call(this);
    const hit = state.entries.get(key);
    if (hit && hit.generation === state.generation) {
      state.hits += 1;
      return copyData(hit.value);
    }
    state.misses += 1;
    const generation = state.generation;
    const value = await originalExec.call(this);
    // A write that started or ended while we were reading invalidates what we read.
    if (generation === state.generation) {
      if (state.entries.size >= MAX_ENTRIES) {
        const oldest = state.entries.keys().next().value;
        if (oldest !== undefined) state.entries.delete(oldest);
      }
      state.entries.set(key, { generation, value: copyData(value) });
    }
    return value;
  };
}
