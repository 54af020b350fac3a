import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Round trips of one request (decision 039): commands in flight at once count once ("waves":
 * how many times the request went from no command in flight to one). Waves × the network's
 * round trip is what the request waits for the database.
 *
 * `unversioned` (decision 043): the request read a collection whose writes do not bump the data
 * version (content-collections.server.ts); what it computed cannot be checked for freshness,
 * so the page cache must not keep it.
 */
export type RoundTripScope = {
  commands: number;
  waves: number;
  inFlight: number;
  unversioned: boolean;
};

const scopes = new AsyncLocalStorage<RoundTripScope>();

/** Run `fn` counting the database commands it causes. */
export function countRoundTrips<T>(fn: () => T): { scope: RoundTripScope; result: T } {
  const scope: RoundTripScope = { commands: 0, waves: 0, inFlight: 0, unversioned: false };
  return { scope, result: scopes.run(scope, fn) };
}

/** The scope of the code running now, if any. */
export const currentScope = (): RoundTripScope | undefined => scopes.getStore();

/**
 * Run `fn` outside any request's scope: work shared by many requests (the version poll one of
 * them starts) counts in none of them.
 */
export const outsideScopes = <T>(fn: () => T): T => scopes.exit(fn);
