import mongoose from 'mongoose';

import { isContentCollection } from './content-collections.server';
import { logger } from './logger.server';
import { processSingleton } from './process-state.server';
import { outsideScopes } from './round-trips.server';

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
 *
 *   The freshness signal does not wait for an idle event loop (decision 043): the timer polls
 *   an idle instance, and every request that asks (`versionCheck`, on the page cache's and the
 *   read cache's path) starts the next poll once the last one is POLL_MS old, and waits for
 *   that one poll (shared by all, single-flight) only once the trusted version is FRESH_MS
 *   old. On a busy instance whose timer runs late, requests keep the version fresh: a late
 *   version costs a request one round trip, not its caches.
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
/**
 * A memory that is no longer fresh may still be served while one request refreshes it, for this
 * long after `since` (it holds every write bumped before `since`): the same bound as a trusted
 * version's (decision 043, stale-while-revalidate).
 */
export const STALE_MS = FRESH_MS;
/** A request waits at most this long for the version check it joined (a hung read). */
const CHECK_WAIT_MS = FRESH_MS;
/** Even with an unchanged version, for writers that bump nothing. */
export const VERSIONED_MAX_AGE_MS = 30_000;

export const VERSION_COLLECTION = 'data_versions';
const VERSION_ID = 'site';

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
  /** The version before the current one, and the start of the last poll that still read it. */
  previous: { value: string; confirmedAt: number } | null;
  /** When the local version last changed (a write of content by this process). */
  localChangedAt: number;
  poller: NodeJS.Timeout | null;
  /** The poll in flight, if any, and when it started. */
  polling: Promise<void> | null;
  pollingSince: number;
  /** What requests wait for: the poll in flight, or CHECK_WAIT_MS, whichever ends first. */
  pollWait: Promise<void> | null;
  /** Polls started, and how many of them a request started (counters for tests and benches). */
  polls: { started: number; byRequests: number };
  /** `done`: the bump in flight, settled (never rejects) once it has finished. */
  bump: { running: boolean; again: boolean; failures: number; done: Promise<void> };
  listeners: Set<(collections: readonly string[] | undefined) => void>;
};

declare module './process-state.server' {
  interface ProcessStateRegistry {
    dataVersion: VersionState;
  }
}

const state = processSingleton('dataVersion', (): VersionState => ({
  mode: 'off',
  local: 0,
  shared: null,
  poller: null,
  previous: null,
  localChangedAt: 0,
  polling: null,
  pollingSince: 0,
  pollWait: null,
  polls: { started: 0, byRequests: 0 },
  bump: { running: false, again: false, failures: 0, done: Promise.resolve() },
  listeners: new Set(),
}));

let clock: () => number = () => Date.now();

/** The clock every freshness decision reads (tests move it; null: the real one). */
export function setFreshnessClock(next: (() => number) | null): void {
  clock = next ?? (() => Date.now());
}

export const freshnessNow = (): number => clock();

export const freshnessMode = () => state.mode;

/** Counters: polls started (by a request, or by the timer), and the local version. */
export const pollStats = () => ({ ...state.polls, inFlight: !!state.polling, local: state.local });

/** The shared version when a poll that started less than FRESH_MS ago read it, else null. */
function trustedShared(now: number): string | null {
  if (!state.shared || now - state.shared.startedAt >= FRESH_MS) return null;
  return state.shared.value;
}

/** Stamp a memory being made now (before the reads it holds start). Null: do not remember. */
export function stamp(now = clock()): Stamp | null {
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
  now = clock(),
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

/**
 * Until when a memory made under `made` is known to hold every write: the local write that
 * made it stale when there was only one since; the start of the last poll that still read its
 * shared version; at least its own `since`.
 */
function heldUntil(made: Stamp): number {
  let until = Number.POSITIVE_INFINITY;
  if (made.local === state.local - 1) until = state.localChangedAt;
  else if (made.local !== state.local) return made.since;
  if (state.mode === 'shared') {
    if (made.shared === null) return made.since;
    if (state.shared?.value === made.shared) until = Math.min(until, state.shared.startedAt);
    else if (state.previous?.value === made.shared)
      until = Math.min(until, state.previous.confirmedAt);
    else return made.since;
  }
  return Math.max(until, made.since);
}

/**
 * May a memory that is no longer fresh be served while one request refreshes it? Only while it
 * holds every write older than STALE_MS (decision 043): a page made stale by a write is served
 * for at most STALE_MS after that write (its bump, for another instance's), never longer.
 */
export function withinStaleBound(made: Stamp, now = clock()): boolean {
  if (state.mode === 'off' || now - made.since >= VERSIONED_MAX_AGE_MS) return false;
  return now - heldUntil(made) < STALE_MS;
}

/** True when a shared version is trusted now (or none is needed: the store is ours). */
export function versionTrusted(now = clock()): boolean {
  return state.mode === 'owned' || (state.mode === 'shared' && trustedShared(now) !== null);
}

/** Run `listener` after every write this process notes (the read cache drops entries). */
export function onWrite(listener: (collections: readonly string[] | undefined) => void): void {
  state.listeners.add(listener);
}

/**
 * A write touched `collections` (undefined or empty: unknown, maybe all). The listeners (the
 * read cache: entries of those collections) hear of every write. A write to content (or to
 * anything unknown) also bumps the local version now and, in shared mode or for other
 * processes on our store, the shared one soon; a write only to background collections
 * (content-collections.server.ts: the media queue, sessions, counts) bumps nothing.
 */
export function noteWrite(collections?: readonly string[]): void {
  const known = collections && collections.length > 0 && !collections.includes('');
  const content = !known || collections.some(isContentCollection);
  if (content) {
    state.local += 1;
    state.localChangedAt = clock();
  }
  for (const listener of state.listeners) listener(known ? collections : undefined);
  if (content && state.mode !== 'off') scheduleBump();
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

/** Read the shared version (one poll in flight at most; outside any request's round trips). */
function poll(): Promise<void> | null {
  if (state.polling) return state.polling;
  const collection = versions();
  if (!collection) return null;
  state.polls.started += 1;
  state.pollingSince = clock();
  state.polling = outsideScopes(() => readShared(collection)).finally(() => {
    state.polling = null;
  });
  return state.polling;
}

/**
 * The freshness signal on the request path (decision 043). Null when the trusted shared version
 * is younger than FRESH_MS (a poll is started, not waited for, once it is POLL_MS old), or when
 * none is needed (the store is ours); else what to wait for before judging a memory: the one
 * poll in flight, shared by every request that asks, for at most CHECK_WAIT_MS. After it,
 * `isFresh` and `versionTrusted` answer with the version it read, or (the read failed or hung)
 * by the fallback lifetime, as before.
 */
export function versionCheck(now = clock()): Promise<void> | null {
  if (state.mode !== 'shared') return null;
  const age = state.shared ? now - state.shared.startedAt : Number.POSITIVE_INFINITY;
  if (age < POLL_MS) return null;
  const starting = !state.polling;
  const polling = poll();
  if (!polling) return null;
  if (starting) state.polls.byRequests += 1;
  if (age < FRESH_MS) return null;
  if (state.pollWait) return state.pollWait;
  // A poll that started FRESH_MS ago cannot make a version trusted: after it, one more.
  const trusting =
    now - state.pollingSince < FRESH_MS
      ? polling
      : polling.then(() => {
          state.polls.byRequests += state.polling ? 0 : 1;
          return poll() ?? undefined;
        });
  const wait: Promise<void> = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CHECK_WAIT_MS);
    timer.unref();
    void trusting.then(() => {
      clearTimeout(timer);
      resolve();
    });
  }).finally(() => {
    if (state.pollWait === wait) state.pollWait = null;
  });
  state.pollWait = wait;
  return wait;
}

async function readShared(collection: NonNullable<ReturnType<typeof versions>>): Promise<void> {
  const startedAt = clock();
  try {
    const doc = await collection.findOne({ _id: VERSION_ID }, { maxTimeMS: FRESH_MS });
    const value = String(doc?.n ?? 0);
    if (!state.shared || state.shared.value !== value) {
      // Another process wrote: what this one remembers may be stale.
      for (const listener of state.listeners) listener(undefined);
      state.previous = state.shared
        ? { value: state.shared.value, confirmedAt: state.shared.startedAt }
        : null;
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
