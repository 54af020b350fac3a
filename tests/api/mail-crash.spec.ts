import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { startSmtpSink } from '../helpers/smtp-sink';
import { apiLogin, runScriptFor, startServer, type TestServer } from '../security/server';

/**
 * A crash in the middle of a send: a 1,000-recipient newsletter goes to a real SMTP server
 * (smtp-server, in this process); the app is SIGKILLed once 300 copies have arrived, then
 * started again on the same data. The send must complete with every active subscriber served
 * and at most MAIL_CONCURRENCY duplicates: the copies in flight at the kill, whose claims ran
 * out (MAIL_LEASE_SECONDS) and were sent again (docs/decisions/016-email-delivery.md).
 *
 * Runs its own server on a temporary DATA_DIR, on the build.
 */
const RECIPIENTS = 1000;
const CONCURRENCY = 5;
const ADMIN = { username: 'mail-crash-admin', password: 'mail-crash-password' };

test('SIGKILL during a 1,000-recipient send: after restart every subscriber is served, duplicates at most the copies in flight', async () => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-mail-crash-'));
  const sink = await startSmtpSink({ parse: false });
  const env = {
    SMTP_URL: sink.url,
    MAIL_CONCURRENCY: String(CONCURRENCY),
    MAIL_LEASE_SECONDS: '2',
  };
  const emails = Array.from({ length: RECIPIENTS }, (_, i) => `crash-fan-${i}@example.com`);
  runScriptFor(dir, 'tests/e2e/scripts/create-records.ts', {
    RECORDS: JSON.stringify(emails.map((email) => ({ kind: 'subscriber', name: 'Fan', email }))),
  });
  runScriptFor(dir, 'scripts/create-admin.ts', {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  let server: TestServer | null = await startServer(dir, env);
  try {
    const cookie = await apiLogin(server.url, ADMIN.username, ADMIN.password);
    const response = await fetch(`${server.url}/api/admin/newsletter`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url, Cookie: cookie },
      body: JSON.stringify({ subject: 'Crash test issue', content: 'Sent through a crash.' }),
    });
    expect(response.status).toBe(202);
    const { id, recipients } = (await response.json()) as { id: number; recipients: number };
    expect(recipients).toBe(RECIPIENTS);

    await expect
      .poll(() => sink.count(), { timeout: 60_000, intervals: [10] })
      .toBeGreaterThanOrEqual(300);
    server.proc.kill('SIGKILL');
    await server.exited;
    const atKill = sink.count();
    server = null;
    expect(atKill, 'the kill came before the end of the send').toBeLessThan(RECIPIENTS);

    server = await startServer(dir, env);
    const restarted = server;
    const restartedCookie = await apiLogin(restarted.url, ADMIN.username, ADMIN.password);
    let progress: Record<string, unknown> = {};
    await expect
      .poll(
        async () => {
          const res = await fetch(`${restarted.url}/api/admin/newsletter/${id}`, {
            headers: { Cookie: restartedCookie },
          });
          progress = (await res.json()) as Record<string, unknown>;
          return progress.state;
        },
        { timeout: 120_000, intervals: [250] },
      )
      .toBe('sent');
    expect(progress).toMatchObject({ total: RECIPIENTS, sent: RECIPIENTS, failed: 0, queued: 0 });

    const received = sink.messages.flatMap((m) => m.to);
    const perAddress = new Map<string, number>();
    for (const to of received) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
    const missed = emails.filter((e) => !perAddress.has(e));
    const duplicates = received.length - perAddress.size;
    console.log(
      `[mail-crash] killed after ${atKill} of ${RECIPIENTS} copies; after restart ${received.length} received, ${perAddress.size} addresses, ${duplicates} duplicate(s) (bound: ${CONCURRENCY} in flight)`,
    );
    expect(missed).toEqual([]);
    expect(perAddress.size).toBe(RECIPIENTS);
    expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
  } finally {
    if (server) {
      server.proc.kill('SIGTERM');
      await server.exited;
    }
    await sink.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
