import type { IncomingMessage, ServerResponse } from 'node:http';

import { isFresh, type Stamp } from '~/platform/data-version.server';
import { Lru } from '~/platform/lru.server';
import { processSingleton } from '~/platform/process-state.server';

/**
 * Single-flight for the page cache (decision 043): at most one render per cache key at a time.
 * The request that finds no usable entry and no render under way leads (it renders, as any miss
 * did); requests for the same key that come meanwhile wait for its answer and are then served
 * from the entry it stored, each as a hit of its own (its own nonce, request id, page view).
 * Without this, 50 concurrent misses of one URL rendered 50 times, and on a busy machine that
 * cost is what kept the cache from ever catching up (issue 37).
 */

/** How a leader's render ended, for the requests waiting on it. */
export type FlightOutcome = 'pending' | 'stored' | 'uncacheable' | 'ended';

export type Flight = {
  outcome: FlightOutcome;
  /** Resolves once the outcome is known. */
  done: Promise<void>;
  settle(outcome: Exclude<FlightOutcome, 'pending'>): void;
};

/** A waiter stops waiting after this long and renders itself (a leader stuck on a slow client). */
const FLIGHT_WAIT_MS = 3000;
/** Keys whose last answer was not kept, remembered so that nobody waits for their renders. */
const MAX_UNCACHEABLE = 1000;

type FlightState = {
  flights: Map<string, Flight>;
  leaders: WeakMap<IncomingMessage, Flight>;
  uncacheable: Lru<string, Stamp>;
};

declare module '~/platform/process-state.server' {
  interface ProcessStateRegistry {
    pageFlights: FlightState;
  }
}

const state = processSingleton('pageFlights', (): FlightState => ({
  flights: new Map(),
  leaders: new WeakMap(),
  uncacheable: new Lru({ maxEntries: MAX_UNCACHEABLE }),
}));

/** The render under way for `key`, if any. */
export const flightOf = (key: string): Flight | undefined => state.flights.get(key);

/** The flight `req` leads, if it leads one. */
export const ledBy = (req: IncomingMessage): Flight | undefined => state.leaders.get(req);

/** `req` renders `key`; others wait for it. Ends when its answer is kept or not, or it ends. */
export function lead(key: string, req: IncomingMessage, res: ServerResponse): Flight {
  let resolve!: () => void;
  const done = new Promise<void>((r) => {
    resolve = r;
  });
  const timer = setTimeout(() => flight.settle('ended'), FLIGHT_WAIT_MS);
  timer.unref();
  const flight: Flight = {
    outcome: 'pending',
    done,
    settle(outcome) {
      if (flight.outcome !== 'pending') return;
      flight.outcome = outcome;
      clearTimeout(timer);
      if (state.flights.get(key) === flight) state.flights.delete(key);
      resolve();
    },
  };
  state.flights.set(key, flight);
  state.leaders.set(req, flight);
  res.once('close', () => flight.settle('ended'));
  return flight;
}

/**
 * Whether requests for `key` should not wait for a render: its last answer was not kept (an
 * error, a personal or oversized answer) and no content changed since.
 */
export function knownUncacheable(key: string): boolean {
  const made = state.uncacheable.peek(key);
  if (!made) return false;
  if (isFresh(made)) return true;
  state.uncacheable.delete(key);
  return false;
}

export function markUncacheable(key: string, made: Stamp | null): void {
  if (!made) return;
  state.uncacheable.set(key, made);
}

export const markCacheable = (key: string): void => {
  state.uncacheable.delete(key);
};
