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
    const deadline = Date.now() + 30_000;
    server = null;
    for (;;) {
      try {
        server = await startServer(dir, {
          MONGODB_URI: `mongodb://127.0.0.1:${dbPort}/`,
          LOG_LEVEL: 'error',
        });
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const url = server.url;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    db.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
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
    // The log line with the same id (stderr, JSON).
    await new Promise((r) => setTimeout(r, 200));
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes(`"requestId":"${id}"`) && l.includes('"level":"error"'));
    expect(line, server.output().slice(-2000)).toBeTruthy();
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
