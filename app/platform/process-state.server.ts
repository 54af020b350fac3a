/**
 * Process-wide state: one holder for everything a process must have exactly one of (the database
 * connection, the parsed environment, the data version and its poll, the caches, the queue
 * workers, the pending counts, the rate limiters), instead of one `globalThis` property each.
 *
 * **Why on `globalThis` at all.** `npm run dev` (`remix dev --manual`, classic compiler) serves
 * the app with remix-serve, which imports the server build again after every rebuild: the whole
 * app is one bundled file (build/index.js), so every module of it is evaluated again, and its
 * module-level variables start empty. What must outlive that:
 * - resources: the connection (a second embedded store on the same DATA_DIR would fail on its
 *   lock), the version poll's timer, the queue workers, the analytics batch and its timer;
 * - state that listeners registered by the first evaluation still write to: the driver's command
 *   monitor (attached once to the connection) bumps the data version and drops read-cache
 *   entries, so those must be the same objects the new code reads, or the new code would read a
 *   cache nothing invalidates.
 * Production (`npm start`, server/index.ts) imports the build once, where this costs nothing.
 * The page cache's entries survive a dev rebuild too; they are never used there (remix-serve
 * does not call `servePage`), and in production the build does not change under a process.
 *
 * **How.** A module that needs one declares its entry in the registry below (declaration
 * merging, so this file imports nothing and every entry is typed where it is defined) and gets
 * it with `processSingleton`:
 *
 *   declare module '~/platform/process-state.server' {
 *     interface ProcessStateRegistry { pageCache: PageCacheState }
 *   }
 *   const state = processSingleton('pageCache', () => ({ entries: new Map(), … }));
 *
 * A value made by older code stays until the process ends: after changing the shape of a state,
 * restart `npm run dev`. No other code assigns a `globalThis.__…` property
 * (process-state.server.test.ts checks).
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ProcessStateRegistry {}

export type ProcessStateKey = keyof ProcessStateRegistry;

type Holder = Map<ProcessStateKey, unknown>;

declare global {
  // The one process-wide property (see above). Typed loosely on purpose: only this file reads it.
  var __nightShoreProcessState: Holder | undefined;
}

const holder = (): Holder => (globalThis.__nightShoreProcessState ??= new Map());

/**
 * This process's one value for `key`: made by `create` the first time it is asked for, then the
 * same object for every caller and every later evaluation of the asking module (dev rebuilds).
 */
export function processSingleton<K extends ProcessStateKey>(
  key: K,
  create: () => ProcessStateRegistry[K],
): ProcessStateRegistry[K] {
  const all = holder();
  if (all.has(key)) return all.get(key) as ProcessStateRegistry[K];
  const value = create();
  all.set(key, value);
  return value;
}

/** The value for `key` if one was made (tests look at a module's state without making it). */
export function peekProcessSingleton<K extends ProcessStateKey>(
  key: K,
): ProcessStateRegistry[K] | undefined {
  return holder().get(key) as ProcessStateRegistry[K] | undefined;
}

/** Forget `key`'s value, so the next `processSingleton` makes a new one (tests). */
export function forgetProcessSingleton(key: ProcessStateKey): void {
  holder().delete(key);
}
