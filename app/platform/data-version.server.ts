import { AsyncLocalStorage } from 'node:async_hooks';

import mongoose from 'mongoose';

import { logger } from './logger.server';

/**
 * How fresh is what this process remembers? (docs/decisions/039-anonymous-pages-near-static-speed.md)
 *
 * The read cache (read-cache.server.ts), the page cache (document/page-cache.server.ts) and the
 * media access decisions ask this module one question: "may I still use something I computed
 * at time T?" The answer rests on two counters:
 *
 * - **the local version**, bumped synchronously by every write this process sees: every write
 *   command its own driver sends (command monitoring, `watchDriverWrites`) and, when it owns the
 *   embedded store, every write any client sends to it (`noteWrite` from the store's `onWrite`);
 * - **the shared version**, a document in the database (`data_versions`, `_id: 'site'`) that
 *   every process running this code bumps (`$inc`, coalesced) after each of its writes, and
 *   that every process reading a shared database polls every POLL_MS.
 *
 * Modes:
 * - `owned` (this process started the embedded store it uses): every write from every client
 *   reaches this process; the local version alone is exact. No polling.
 * - `shared` (MONGODB_URI, or a store another process owns): a memory is valid while the local
 *   version is unchanged and the shared version read by a poll that *started* within
 *   FRESH_MS is the one it was made under, for at most VERSIONED_MAX_AGE_MS. When the poll is
 *   late or failing (the database is slow, the notification path is broken), the read cache
 *   is bypassed and a page is remembered only for FALLBACK_TTL_MS after the data it shows was
 *   read: slower, never staler than the bound (≤ FRESH_MS after the last good poll).
 * - `off` (nothing connected yet, tests of single modules): nothing is remembered.
 *
 * A write on instance A reaches instance B after: A's bump (one round trip after the write),
 * B's next poll (≤ POLL_MS) and its round trip: well under the 1 s bound. Writers that bypass
 * this code (mongosh, Compass on Atlas) bump nothing: what they change shows within
 * VERSIONED_MAX_AGE_MS, the lifetime the site already gives shared caches (s-maxage=30).
 */

export const POLL_MS = 200;
/** A shared version is trusted while the poll that read it started less than this ago. */
export const FRESH_MS = 600;
/** Without a trusted shared version, a memory lives this long (the staleness bound, halved). */
export const FALLBACK_TTL_MS = 500;
/** Even with an unchanged version, for writers that bump nothing. */
export const VERSIONED_MAX_AGE_MS = 30_000;

export const VERSION_COLLECTION = 'data_versions';
const VERSION_ID = 'site';

/**
 * Collections whose writes change nothing a shared page or cached read shows (per-visitor
 * state, counters, queues, the version itself).
 */
export const UNSHOWN_COLLECTIONS: ReadonlySet<string> = new Set([
  'sessions',
  'rate_limits',
  VERSION_COLLECTION,
  'stats_daily',
  'stats_seen',
  'mail_deliveries',
]);

export type FreshnessMode = 'off' | 'owned' | 'shared';

/** What a memory records when it is made, to be judged by `isFresh` later. */
export type Stamp = {
  local: number;
  /** The shared version trusted when the memory was made, or null (none trusted then). */
  shared: string | null;
  /**
   * Every write bumped before this time is in the memory: the start of the poll that read the
   * trusted version (what the read cache holds is only as fresh as that), else its making.
   */
  since: number;
};

type VersionState = {
  mode: FreshnessMode;
  local: number;
  shared: { value: string; startedAt: number } | null;
  poller: NodeJS.Timeout | null;
  /** The poll in flight, if any. */
  polling: Promise<void> | null;
  /** `done`: the bump in flight, settled (never rejects) once it has finished. */
  bump: { running: boolean; again: boolean; failures: number; done: Promise<void> };
  listeners: Set<(collections: readonly string[] | undefined) => void>;
  watched: WeakSet<object>;
  pending: Map<number, { collection: string | undefined; scope: RoundTripScope | undefined }>;
};

declare global {
  var __nightShoreDataVersion: VersionState | undefined;
}

const state: VersionState = (globalThis.__nightShoreDataVersion ??= {
  mode: 'off',
  local: 0,
  shared: null,
  poller: null,
  polling: null,
  bump: { running: false, again: false, failures: 0, done: Promise.resolve() },
  listeners: new Set(),
  watched: new WeakSet(),
  pending: new Map(),
});

export const freshnessMode = () => state.mode;

/** The shared version when a poll that started less than FRESH_MS ago read it, else null. */
function trustedShared(now: number): string | null {
  if (!state.shared || now - state.shared.startedAt >= FRESH_MS) return null;
  return state.shared.value;
}

/** Stamp a memory being made now (before the reads it holds start). Null: do not remember. */
export function stamp(now = Date.now()): Stamp | null {
  if (state.mode === 'off') return null;
  if (state.mode === 'owned') return { local: state.local, shared: null, since: now };
  const shared = trustedShared(now);
  return shared !== null && state.shared
    ? { local: state.local, shared, since: state.shared.startedAt }
    : { local: state.local, shared: null, since: now };
}

/**
 * May a memory made under `made` still be used? (See the top of this file.) Without a trusted
 * shared version, only what is younger than FALLBACK_TTL_MS, counted from `since`.
 */
export function isFresh(
  made: Stamp,
  now = Date.now(),
  options: { ignoreLocal?: boolean } = {},
): boolean {
  if (state.mode === 'off') return false;
  if (!options.ignoreLocal && made.local !== state.local) return false;
  if (state.mode === 'owned') return true;
  const shared = trustedShared(now);
  if (shared !== null && made.shared !== null)
    return made.shared === shared && now - made.since < VERSIONED_MAX_AGE_MS;
  return now - made.since < FALLBACK_TTL_MS;
}

/** True when a shared version is trusted now (or none is needed: the store is ours). */
export function versionTrusted(now = Date.now()): boolean {
  return state.mode === 'owned' || (state.mode === 'shared' && trustedShared(now) !== null);
}

/** Run `listener` after every write this process notes (the read cache drops entries). */
export function onWrite(listener: (collections: readonly string[] | undefined) => void): void {
  state.listeners.add(listener);
}

/**
 * A write touched `collections` (undefined or empty: unknown, maybe all). Bumps the local
 * version now and, in shared mode or for other processes on our store, the shared one soon.
 */
export function noteWrite(collections?: readonly string[]): void {
  const known = collections && collections.length > 0 && !collections.includes('');
  if (known && collections.every((c) => UNSHOWN_COLLECTIONS.has(c))) return;
  state.local += 1;
  for (const listener of state.listeners) listener(known ? collections : undefined);
  if (state.mode !== 'off') scheduleBump();
}

function versions() {
  const db = mongoose.connection.db;
  if (!db || mongoose.connection.readyState !== 1) return null;
  return db.collection<{ _id: string; n: number }>(VERSION_COLLECTION);
}

/** `$inc` the shared version; writes during a bump cause one more bump after it. */
function scheduleBump(): void {
  if (state.bump.running) {
    state.bump.again = true;
    return;
  }
  state.bump.running = true;
  state.bump.again = false;
  const collection = versions();
  if (!collection) {
    state.bump.running = false;
    return;
  }
  state.bump.done = collection
    .updateOne({ _id: VERSION_ID }, { $inc: { n: 1 } }, { upsert: true })
    .then(
      () => {
        state.bump.failures = 0;
      },
      (error: unknown) => {
        state.bump.failures += 1;
        state.bump.again = true;
        if (state.bump.failures === 1 || state.bump.failures % 50 === 0)
          logger.warn({ err: error, failures: state.bump.failures }, 'data version bump failed');
      },
    )
    .finally(() => {
      state.bump.running = false;
      if (state.bump.again) {
        const delay = state.bump.failures > 0 ? Math.min(1000, 50 * state.bump.failures) : 0;
        setTimeout(scheduleBump, delay).unref();
      }
    });
}

function poll(): Promise<void> {
  if (state.polling) return state.polling;
  const collection = versions();
  if (!collection) return Promise.resolve();
  state.polling = readShared(collection).finally(() => {
    state.polling = null;
  });
  return state.polling;
}

async function readShared(collection: NonNullable<ReturnType<typeof versions>>): Promise<void> {
  const startedAt = Date.now();
  try {
    const doc = await collection.findOne({ _id: VERSION_ID }, { maxTimeMS: FRESH_MS });
    const value = String(doc?.n ?? 0);
    if (!state.shared || state.shared.value !== value) {
      // Another process wrote: what this one remembers may be stale.
      for (const listener of state.listeners) listener(undefined);
    }
    state.shared = { value, startedAt };
  } catch {
    // Left to age: past FRESH_MS memories fall back to FALLBACK_TTL_MS.
  }
}

/** Start remembering: `owned` when every write reaches this process, else `shared` (polls). */
export function startFreshness(mode: Exclude<FreshnessMode, 'off'>): void {
  state.mode = mode;
  if (mode === 'owned' && state.poller) {
    clearInterval(state.poller);
    state.poller = null;
  }
  if (mode === 'shared' && !state.poller) {
    void poll();
    state.poller = setInterval(() => void poll(), POLL_MS);
    state.poller.unref();
  }
}

/**
 * Stop remembering, before the connection closes: no more polls; the poll in flight and the
 * bumps this process's last writes asked for finish first (other processes must hear of those
 * writes, and a bump cut off by the closing client would only fail). A bump that fails is
 * logged as any other and not retried here.
 */
export async function stopFreshness(): Promise<void> {
  if (state.poller) clearInterval(state.poller);
  state.poller = null;
  await state.polling;
  // The bump in flight, then the one asked for during it (at most one more: writes have stopped).
  for (let round = 0; round < 2 && (state.bump.running || state.bump.again); round += 1) {
    if (!state.bump.running) scheduleBump();
    await state.bump.done;
  }
  state.bump.again = false;
  state.shared = null;
  state.mode = 'off';
  state.local += 1;
}

/** Forget the trusted shared version (tests: as if the poll had stopped answering). */
export function forgetSharedVersion(): void {
  state.shared = null;
}

// ---------------------------------------------------------------------------------------------
// The driver's commands: every write this process sends, and round trips per request.

const WRITE_COMMANDS = new Set([
  'insert',
  'update',
  'delete',
  'findAndModify',
  'create',
  'drop',
  'renameCollection',
  'dropDatabase',
]);

/** The collection a write command names; undefined when it may touch any. */
function writtenCollection(name: string, command: Record<string, unknown>): string | undefined {
  if (name === 'dropDatabase' || name === 'renameCollection') return undefined;
  const value = command[name];
  return typeof value === 'string' ? value : undefined;
}

function isWrite(name: string, command: Record<string, unknown>): boolean {
  if (WRITE_COMMANDS.has(name)) return true;
  if (name !== 'aggregate') return false;
  const pipeline = command.pipeline;
  return (
    Array.isArray(pipeline) &&
    pipeline.some(
      (stage) => typeof stage === 'object' && stage && ('$out' in stage || '$merge' in stage),
    )
  );
}

/**
 * Round trips of one request: commands in flight at once count once ("waves": how many times
 * the request went from no command in flight to one). Waves × the network's round trip is what
 * the request waits for the database.
 */
export type RoundTripScope = { commands: number; waves: number; inFlight: number };

const scopes = new AsyncLocalStorage<RoundTripScope>();

/** Run `fn` counting the database commands it causes. */
export function countRoundTrips<T>(fn: () => T): { scope: RoundTripScope; result: T } {
  const scope: RoundTripScope = { commands: 0, waves: 0, inFlight: 0 };
  return { scope, result: scopes.run(scope, fn) };
}

type CommandEvent = {
  requestId: number;
  commandName: string;
  command?: Record<string, unknown>;
  reply?: unknown;
};

const count = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : undefined;

/**
 * Whether a write command that succeeded changed no document, by its reply: an insert or delete
 * with `n: 0`, an update with `nModified: 0` and nothing upserted, a findAndModify whose
 * `lastErrorObject.n` is 0. A worker polling a queue with `findOneAndUpdate` (the media jobs'
 * claim, every second) makes such writes all day: counted as writes, each emptied every cache
 * of every instance. Unknown reply shapes count as writes.
 */
export function wroteNothing(commandName: string, reply: unknown): boolean {
  if (!reply || typeof reply !== 'object') return false;
  const r = reply as Record<string, unknown>;
  if (commandName === 'insert' || commandName === 'delete') return count(r.n) === 0;
  if (commandName === 'update')
    return count(r.nModified) === 0 && !(Array.isArray(r.upserted) && r.upserted.length > 0);
  if (commandName === 'findAndModify') {
    const last = r.lastErrorObject;
    return (
      !!last &&
      typeof last === 'object' &&
      count((last as Record<string, unknown>).n) === 0 &&
      (last as Record<string, unknown>).upserted === undefined
    );
  }
  return false;
}

/**
 * Listen to the driver's command events (the client must be created with
 * `monitorCommands: true`): every write becomes `noteWrite`, every command counts in the
 * round-trip scope of the code that sent it.
 */
export function watchDriverWrites(client: {
  on(event: string, listener: (event: CommandEvent) => void): unknown;
}): void {
  if (state.watched.has(client)) return;
  state.watched.add(client);
  client.on('commandStarted', (event) => {
    const scope = scopes.getStore();
    if (scope) {
      scope.commands += 1;
      if (scope.inFlight === 0) scope.waves += 1;
      scope.inFlight += 1;
    }
    const command = event.command ?? {};
    const write = isWrite(event.commandName, command);
    if (!scope && !write) return;
    state.pending.set(event.requestId, {
      collection: write ? (writtenCollection(event.commandName, command) ?? '') : undefined,
      scope,
    });
  });
  const finished = (event: CommandEvent, succeeded: boolean) => {
    const pending = state.pending.get(event.requestId);
    if (!pending) return;
    state.pending.delete(event.requestId);
    if (pending.scope) pending.scope.inFlight -= 1;
    if (pending.collection === undefined) return;
    // A write that changed nothing changes nothing shown. A failed write may still have
    // written part of its documents: note it.
    if (succeeded && wroteNothing(event.commandName, event.reply)) return;
    noteWrite(pending.collection === '' ? undefined : [pending.collection]);
  };
  client.on('commandSucceeded', (event) => finished(event, true));
  client.on('commandFailed', (event) => finished(event, false));
}
