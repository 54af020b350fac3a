import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { freePort, startServer, type TestServer } from '../security/server';

/**
 * When the database goes away: /healthz answers 503, and a page fails with a 503 (decision 033)
 * and the error page showing "Error reference: <id>" — the answer's X-Request-Id, also on the
 * JSON error line in the server log — and no stack trace.
 */
test('database down: /healthz 503 and a 503 error page with the logged request id, no stack', async () => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-errref-'));
  const dbPort = await freePort();
  // Node itself with the tsx loader (the tsx CLI would leave its child running on SIGKILL).
  const db = spawn(
    process.execPath,
    ['--import', 'tsx', 'embedded-mongo/cli.ts', '--port', String(dbPort), '--memory'],
    {
      stdio: 'ignore',
    },
  );
  let server: TestServer | null = null;
  try {
    // The store may still be starting: try until the server starts (the test's timeout bounds it).
    const started: { server?: TestServer } = {};
    await expect(async () => {
      started.server = await startServer(dir, {
        MONGODB_URI: `mongodb://127.0.0.1:${dbPort}/`,
        LOG_LEVEL: 'error',
      });
    }).toPass();
    const running = started.server!;
    server = running;
    const url = running.url;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    db.kill('SIGKILL');
    // The server finds the store gone at its next look: poll the health check until it says so.
    await expect.poll(async () => (await fetch(`${url}/healthz`)).status).toBe(503);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable' });

    const page = await fetch(`${url}/`);
    expect(page.status).toBe(503);
    const id = page.headers.get('X-Request-Id');
    expect(id).toMatch(/^[\w-]{8,}$/);
    const html = await page.text();
    expect(html).toContain(`Error reference: <code>${id}</code>`);
    expect(html).not.toMatch(/MongoNetworkError|ECONNREFUSED|node_modules|at \S+ \(/);
    // The log line with the same id (stderr, JSON), once it is written.
    const logLine = () =>
      running
        .output()
        .split('\n')
        .find((l) => l.includes(`"requestId":"${id}"`) && l.includes('"level":"error"'));
    await expect.poll(logLine, { message: running.output().slice(-2000) }).toBeTruthy();
    const line = logLine();
    expect(JSON.parse(line!)).toMatchObject({ requestId: id, method: 'GET', path: '/' });
  } finally {
    db.kill('SIGKILL');
    if (server) {
      server.proc.kill('SIGKILL');
      await server.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
