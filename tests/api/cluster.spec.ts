import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { startServer } from '../security/server';

/**
 * WEB_CONCURRENCY=2 (server/primary.ts): two workers share the port, the embedded store runs
 * once in the primary, a dead worker is replaced, SIGTERM stops everything cleanly and the
 * data is there at the next start.
 */
test('two workers serve the site on one port and one store; a killed worker is replaced', async () => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-cluster-'));
  try {
    const server = await startServer(dir, {
      WEB_CONCURRENCY: '2',
      SEED: 'true',
      LOG_LEVEL: 'info',
    });
    const workerPids = () =>
      [...server.stdout().matchAll(/\(worker (\d+), pid (\d+)\)/g)].map((m) => Number(m[2]));
    await expect.poll(() => workerPids().length, { timeout: 60_000 }).toBe(2);
    expect(server.stdout()).toContain('embedded store for 2 workers');

    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${server.url}/music`).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    const tracks = (await (await fetch(`${server.url}/api/tracks`)).json()) as unknown[];
    expect(tracks.length).toBeGreaterThanOrEqual(6);

    process.kill(workerPids()[0]!, 'SIGKILL');
    await expect.poll(() => workerPids().length, { timeout: 60_000 }).toBe(3);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(fs.existsSync(path.join(dir, 'data', 'db', 'mongod.lock'))).toBe(false);

    // One process on the same data afterwards: the store was closed cleanly, the data kept.
    const single = await startServer(dir, { SEED: 'true' });
    try {
      expect(((await (await fetch(`${single.url}/api/tracks`)).json()) as unknown[]).length).toBe(
        tracks.length,
      );
    } finally {
      single.proc.kill('SIGTERM');
      await single.exited;
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
