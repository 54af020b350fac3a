import { type MongoClient } from 'mongodb';

import { roundTripsOf } from './bench-stores';

/**
 * The requests and store readings of `npm run bench:catalogue` (scripts/bench-catalogue.ts and
 * its side-by-side mode, scripts/catalogue-pair.ts): one timed request read to its end, a
 * login, the store's per-collection command counts and memory, and the site's idle rate.
 */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Answer = {
  ms: number;
  status: number;
  bytes: number;
  trips: { commands: number; roundTrips: number } | null;
};

/** One request, its body read to the end (counted, not kept); null when past the bound. */
export async function request(
  url: string,
  cookie: string,
  timeoutMs: number,
): Promise<Answer | null> {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      headers: { Cookie: cookie },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    let bytes = 0;
    const reader = res.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      bytes += chunk.value.byteLength;
    }
    return { ms: performance.now() - started, status: res.status, bytes, trips: roundTripsOf(res) };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError')
      return null;
    throw error;
  }
}

export async function login(origin: string, account: { username: string; password: string }) {
  const res = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify(account),
  });
  if (res.status !== 200) throw new Error(`login of ${account.username}: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export type Status = { byNamespace: Map<string, number>; residentMb: number };

/**
 * The store's commands so far per namespace (`top`: the commands that named a collection) and
 * its resident memory (`serverStatus`): mongod answers both in the same shape.
 */
export async function storeStatus(client: MongoClient): Promise<Status> {
  const admin = client.db('admin');
  const top = await admin.command({ top: 1 });
  const byNamespace = new Map<string, number>();
  for (const [ns, entry] of Object.entries((top.totals ?? {}) as Record<string, unknown>)) {
    const total = (entry as { total?: { count?: unknown } } | null)?.total?.count;
    if (total !== undefined) byNamespace.set(ns, Number(total));
  }
  const status = await admin.command({ serverStatus: 1 });
  return { byNamespace, residentMb: Number(status.mem?.resident ?? 0) };
}

/** Commands per second on each namespace between two readings (the site's background). */
export function ratesBetween(a: Status, b: Status, seconds: number): Map<string, number> {
  const rates = new Map<string, number>();
  for (const [ns, count] of b.byNamespace) {
    const delta = count - (a.byNamespace.get(ns) ?? 0);
    if (delta > 0) rates.set(ns, delta / seconds);
  }
  return rates;
}

/**
 * The commands between two readings, less the background: on each namespace the site touches
 * while idle (its data-version poll, its job queues), its idle rate over the same time (never
 * below zero: a page that blocks the event loop also holds the polls back).
 */
export function netCommands(
  a: Status,
  b: Status,
  seconds: number,
  background: Map<string, number>,
) {
  let net = 0;
  for (const [ns, count] of b.byNamespace) {
    const delta = count - (a.byNamespace.get(ns) ?? 0);
    net += Math.max(0, delta - (background.get(ns) ?? 0) * seconds);
  }
  return net;
}

/** After a timeout the server may still be working on it: wait until it answers again. */
export async function waitResponsive(origin: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 180_000) {
    const answer = await request(`${origin}/healthz`, '', 2_000).catch(() => null);
    if (answer && answer.status === 200 && answer.ms < 500) break;
    await sleep(1_000);
  }
  return Math.round((Date.now() - started) / 1000);
}
