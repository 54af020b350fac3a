import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';

import { apiLogin, runScriptFor, startServer, type TestServer } from '../security/server';
import { raw } from './raw-http';

/**
 * The trust boundary (docs/decisions/028-trust-boundary.md) on servers of its own, so their
 * configuration (SITE_URL, ALLOWED_HOSTS, LOG_LEVEL) is the one under test:
 * - only allowed hosts are answered, and a forged Host sends no email;
 * - every link in an email comes from SITE_URL (or http://localhost:PORT without it), never
 *   from the Host the request named;
 * - the request log holds no link token.
 * Cross-site state changes on every surface are in cross-site.spec.ts.
 */

const CONTACT = {
  name: 'Ann Harbour',
  email: 'ann@example.com',
  subject: 'Booking Inquiry',
  message: 'Could you play our boardwalk party in July?',
};

const outboxOf = (dir: string) => path.join(dir, 'data', 'outbox');
const emlFiles = (dir: string): string[] =>
  fs.existsSync(outboxOf(dir))
    ? fs.readdirSync(outboxOf(dir)).filter((f) => f.endsWith('.eml'))
    : [];

/** Waits for the outbox to hold `count` messages; returns their parsed text and links. */
async function waitForMail(dir: string, count: number) {
  await expect.poll(() => emlFiles(dir).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  return Promise.all(
    emlFiles(dir)
      .sort()
      .map(async (file) => {
        const mail = await simpleParser(fs.readFileSync(path.join(outboxOf(dir), file)));
        const html = typeof mail.html === 'string' ? mail.html : '';
        const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? '');
        return { to: mail.to, subject: mail.subject ?? '', text: mail.text ?? '', links };
      }),
  );
}

const json = (body: unknown) => ({
  headers: { 'Content-Type': 'application/json' },
  chunks: [JSON.stringify(body)],
});

test.describe('without SITE_URL (the quick start)', () => {
  let dir = '';
  let server: TestServer;
  test.beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-hosts-'));
    server = await startServer(dir, { LOG_LEVEL: 'info', SITE_URL: '' });
  });
  test.afterAll(async () => {
    server.proc.kill('SIGTERM');
    await server.exited;
  });

  test('the start says links use http://localhost:PORT; other Hosts get 400, /healthz answers all', async () => {
    expect(server.stdout()).toContain(
      `SITE_URL is unset: links in emails and feeds use http://localhost:${server.port}`,
    );
    const base = server.url;
    for (const host of ['evil.example', `evil.example:${server.port}`, 'nightshore.example']) {
      const page = await raw('GET', '/', { Host: host }, [], { base });
      expect(page.status, host).toBe(400);
      expect(page.body.trim()).toBe('Bad Request: unknown host');
      const api = await raw('GET', '/api/tracks', { Host: host }, [], { base });
      expect(api.status, host).toBe(400);
      expect(JSON.parse(api.body)).toEqual({ error: 'Bad Request: unknown host' });
    }
    // The operator learns why, with the settings to change.
    const refusals = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"host refused"'))
      .map((line) => JSON.parse(line) as { level: string; host: string; hint: string });
    expect(refusals.map((r) => r.host)).toContain('evil.example');
    expect(refusals[0]).toMatchObject({
      level: 'warn',
      hint: expect.stringMatching(/SITE_URL.*ALLOWED_HOSTS/),
    });
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
      expect((await raw('GET', '/', { Host: host }, [], { base })).status, host).toBe(200);
    }
    const probe = await raw('GET', '/healthz', { Host: '10.0.0.7' }, [], { base });
    expect(probe.status).toBe(200);
    expect(JSON.parse(probe.body)).toMatchObject({ status: 'ok' });
  });

  test('a contact message or a sign-up with a forged Host gets 400 and sends nothing; the right one links to localhost', async () => {
    const base = server.url;
    const forged = { Host: 'evil.example', Origin: 'http://evil.example' };
    const contact = json(CONTACT);
    const refused = await raw(
      'POST',
      '/api/contact',
      { ...contact.headers, ...forged },
      contact.chunks,
      {
        base,
      },
    );
    expect(refused.status).toBe(400);
    const signUp = json({ name: 'Ann', email: 'ann.forged@example.com' });
    expect(
      (
        await raw('POST', '/api/subscribe', { ...signUp.headers, ...forged }, signUp.chunks, {
          base,
        })
      ).status,
    ).toBe(400);
    const page = await raw(
      'POST',
      '/contact',
      { 'Content-Type': 'application/x-www-form-urlencoded', ...forged },
      [new URLSearchParams(CONTACT).toString()],
      { base },
    );
    expect(page.status).toBe(400);

    const accepted = await raw('POST', '/api/contact', contact.headers, contact.chunks, { base });
    expect(accepted.status).toBe(201);
    const mails = await waitForMail(dir, 1);
    // Nothing was queued for the refused requests: one message, the accepted one.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(emlFiles(dir)).toHaveLength(1);
    const [notice] = mails;
    expect(
      notice?.links.some((l) => l.startsWith(`http://localhost:${server.port}/admin/messages/`)),
    ).toBe(true);
    expect(JSON.stringify(mails)).not.toContain('evil.example');
  });

  test('the request log holds no link token', async () => {
    const base = server.url;
    const tokens = [
      `12.${'A'.repeat(32)}`,
      `7.${'b'.repeat(20)}.${'c'.repeat(22)}`,
      'not-a-token-at-all',
    ];
    for (const token of tokens) {
      for (const p of [`/unsubscribe/${token}`, `/newsletter/confirm/${token}`]) {
        await raw('GET', p, {}, [], { base });
        await raw('GET', `${p}.data`, {}, [], { base });
        await raw('POST', p, { 'Content-Type': 'application/x-www-form-urlencoded' }, ['x=1'], {
          base,
        });
      }
    }
    await expect
      .poll(() => server.stdout().match(/"path":"\/newsletter\/confirm\/\[token\]"/g)?.length ?? 0)
      .toBeGreaterThanOrEqual(tokens.length * 3);
    const log = server.output();
    expect(log).toContain('"path":"/unsubscribe/[token]"');
    for (const token of tokens) expect(log).not.toContain(token);
  });

  test('nor when the token route is spelt in upper case or percent-encoded (issue 38)', async () => {
    const base = server.url;
    const token = `9.${'Q'.repeat(24)}`;
    const spellings = [
      `/UNSUBSCRIBE/${token}`,
      `/unsubscrib%65/${token}`,
      `/NEWSLETTER/CONFIRM/${token}`,
      `/newsletter/confir%6D/${token}`,
      `/ACCOUNT/VERIFY-EMAIL/${token}`,
      `/PODCAST/PRIVATE/${token}.xml`,
      `/podcast/privat%65/${token}.xml`,
    ];
    for (const p of spellings) await raw('GET', p, {}, [], { base });
    await expect
      .poll(() => server.stdout().match(/"path":"\/podcast\/private\/\[token\]"/gi)?.length ?? 0)
      .toBeGreaterThanOrEqual(2);
    expect(server.output()).not.toContain('Q'.repeat(24));
  });
});

test('with SITE_URL: every link in an email starts with it, whichever allowed host was addressed', async () => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-site-url-'));
  const server = await startServer(dir, {
    SITE_URL: 'https://nightshore.example',
    ALLOWED_HOSTS: 'www.nightshore.example',
  });
  try {
    const base = server.url;
    runScriptFor(dir, 'scripts/create-admin.ts', {
      ADMIN_USERNAME: 'hosts-admin',
      ADMIN_PASSWORD: 'hosts-admin-password',
    });
    const cookie = await apiLogin(base, 'hosts-admin', 'hosts-admin-password');
    // Sign-ups must be confirmed: the confirmation email carries a link.
    const settings = await raw(
      'POST',
      '/admin/settings',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      [new URLSearchParams({ intent: 'newsletter-settings', doubleOptIn: 'on' }).toString()],
      { base, cookie },
    );
    expect(settings.status).toBeLessThan(400);

    const www = { Host: 'www.nightshore.example', Origin: 'https://www.nightshore.example' };
    const contact = json(CONTACT);
    expect(
      (await raw('POST', '/api/contact', { ...contact.headers, ...www }, contact.chunks, { base }))
        .status,
    ).toBe(201);
    const signUp = json({ name: 'Bea', email: 'bea@example.com' });
    expect(
      (await raw('POST', '/api/subscribe', { ...signUp.headers, ...www }, signUp.chunks, { base }))
        .status,
    ).toBe(201);
    // The loopback name is allowed too; its links are SITE_URL's all the same.
    expect(
      (await raw('POST', '/api/contact', contact.headers, contact.chunks, { base })).status,
    ).toBe(201);

    const mails = await waitForMail(dir, 3);
    const links = mails.flatMap((m) => m.links).filter((l) => /^https?:/.test(l));
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const link of links) expect(link).toMatch(/^https:\/\/nightshore\.example\//);
    expect(links.some((l) => l.startsWith('https://nightshore.example/newsletter/confirm/'))).toBe(
      true,
    );
    expect(links.some((l) => l.startsWith('https://nightshore.example/admin/messages/'))).toBe(
      true,
    );
  } finally {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
});
