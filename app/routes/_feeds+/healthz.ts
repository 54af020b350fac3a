import { json } from '@remix-run/node';

import { pingDb } from '~/platform/db.server';

/**
 * GET /healthz — for load balancers and uptime checks: 200 `{ status: 'ok' }` when the
 * database answers a ping, 503 `{ status: 'unavailable' }` otherwise. Never cached.
 */
export async function loader() {
  const started = performance.now();
  const ok = await Promise.race([
    pingDb(),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000).unref()),
  ]);
  const ms = Math.round(performance.now() - started);
  return json(
    ok ? { status: 'ok', db: 'ok', ms } : { status: 'unavailable', db: 'unreachable', ms },
    { status: ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
