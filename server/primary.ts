/**
 * `WEB_CONCURRENCY=n`: this process forks n workers that share the port (node:cluster), each a
 * full instance of the site (server/http-server.ts: its own database connection, request
 * handling and mail worker). It serves no request itself.
 *
 * - The database: with MONGODB_URI, every worker connects to it. Without it, the embedded store
 *   runs once, in this process; the workers find it through the lock file it keeps in
 *   DATA_DIR/db (`findRunningStore`) and connect to it like any client. Their read caches stay
 *   off, as with any store they do not own (app/platform/read-cache.server.ts).
 * - What the workers share is in the database: sessions, rate limits, the seed claim, the
 *   mail queue (docs/decisions/022-several-instances.md).
 * - A worker that dies is replaced; if workers keep dying at start (five in a row within
 *   10 seconds), the primary gives up with exit code 1 rather than loop.
 * - SIGTERM/SIGINT: each worker is asked to stop gracefully (it finishes its requests in
 *   flight), then the store is closed, and the primary exits. A second signal exits at once.
 */
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';

import { findRunningStore, startEmbeddedMongo } from '@night-shore/embedded-mongo';

import { env } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';

const QUICK_DEATH_MS = 10_000;
const MAX_QUICK_DEATHS = 5;

export async function runPrimary(concurrency: number): Promise<void> {
  let stopStore: (() => Promise<void>) | null = null;
  if (!env.MONGODB_URI) {
    const dataDir = path.resolve(env.DATA_DIR, 'db');
    if (findRunningStore(dataDir)) {
      logger.info(`the workers use the store already running for ${dataDir}`);
    } else {
      const store = await startEmbeddedMongo({ dataDir });
      stopStore = store.stop;
      logger.info(`embedded store for ${concurrency} workers: ${store.uri}`);
    }
  }

  const startedAt = new Map<number, number>();
  let quickDeaths = 0;
  let stopping = false;
  let exitCode = 0;

  const fork = (): Worker => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };

  const finish = async (code: number) => {
    if (stopStore) await stopStore();
    process.exit(code);
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) void finish(exitCode);
      return;
    }
    logger.error(
      `worker ${worker.id} (pid ${worker.process.pid}) exited (${signal ?? code}); starting another`,
    );
    quickDeaths = lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
    if (quickDeaths >= MAX_QUICK_DEATHS) {
      logger.error(`${MAX_QUICK_DEATHS} workers died at start in a row: giving up`);
      stopping = true;
      exitCode = 1;
      for (const other of Object.values(cluster.workers ?? {})) other?.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) void finish(exitCode);
      return;
    }
    fork();
  });

  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
    if (workers.length === 0) void finish(0);
    for (const worker of workers) worker.send('shutdown');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  for (let i = 0; i < concurrency; i++) fork();
}
