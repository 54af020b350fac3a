import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { runScriptFor, startServer, type TestServer } from '../security/server';

/**
 * Abuse limits over HTTP, on a server of its own with small limits (the shared e2e server
 * raises them for the suites): 429 + Retry-After + 'Too many attempts…' on /api and on the
 * page forms (contact, subscribe, register, login), per address and per username for login, not escaped by a forged
 * X-Forwarded-For, and still in force after a restart (the counters live in the database).
 */

const TOO_MANY = /^Too many attempts\. Please try again in \d+ minutes?\.$/;
const LIMITS = {
  RATE_LIMIT_CONTACT_PER_IP: '2',
  RATE_LIMIT_SUBSCRIBE_PER_IP: '2',
  RATE_LIMIT_REGISTER_PER_IP: '2',
  RATE_LIMIT_LOGIN_PER_USER: '2',
  RATE_LIMIT_LOGIN_PER_IP: '6',
};

test('abuse limits answer 429 with Retry-After, per address and per username, across restarts', async () => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-limits-'));
  let server: TestServer | null = await startServer(dir, LIMITS);
  try {
    runScriptFor(dir, 'scripts/create-admin.ts', {
      ADMIN_USERNAME: 'limit-admin',
      ADMIN_PASSWORD: 'limit-admin-pw',
    });
    let url = server.url;
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${url}${p}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: url, ...headers },
        body: JSON.stringify(body),
      });
    const form = (p: string, fields: Record<string, string>) =>
      fetch(`${url}${p}`, {
        method: 'POST',
        body: new URLSearchParams(fields),
        redirect: 'manual',
      });
    const contact = {
      name: 'Ann',
      email: 'ann@example.com',
      subject: 'Booking Inquiry',
      message: 'A message long enough.',
    };

    // Contact: two, then refused — also with a forged X-Forwarded-For, also on the page form.
    expect((await post('/api/contact', contact)).status).toBe(201);
    expect((await post('/api/contact', contact)).status).toBe(201);
    const refused = await post('/api/contact', contact);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toMatch(TOO_MANY);
    expect((await post('/api/contact', contact, { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(
      429,
    );
    const page = await form('/contact', { intent: 'contact', ...contact });
    expect(page.status).toBe(429);
    expect(await page.text()).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
    expect(Number(page.headers.get('Retry-After'))).toBeGreaterThan(0);

    // Subscribe: page form and /api share the bucket.
    expect(
      (
        await form('/?index', {
          intent: 'subscribe',
          name: 'Bo',
          email: 'bo1@example.com',
          privacy: 'on',
        })
      ).status,
    ).toBe(302);
    expect((await post('/api/subscribe', { email: 'bo2@example.com' })).status).toBe(201);
    expect((await post('/api/subscribe', { email: 'bo3@example.com' })).status).toBe(429);
    const subscribePage = await form('/?index', {
      intent: 'subscribe',
      name: 'Bo',
      email: 'bo4@example.com',
      privacy: 'on',
    });
    expect(subscribePage.status).toBe(429);
    expect(Number(subscribePage.headers.get('Retry-After'))).toBeGreaterThan(0);

    // Register.
    expect(
      (await post('/api/register', { username: 'reg-one', password: 'secret-123' })).status,
    ).toBe(201);
    expect(
      (
        await form('/auth', {
          intent: 'register',
          username: 'reg-two',
          password: 'secret-123',
          confirmPassword: 'secret-123',
        })
      ).status,
    ).toBe(302);
    expect(
      (await post('/api/register', { username: 'reg-three', password: 'secret-123' })).status,
    ).toBe(429);
    const registerPage = await form('/auth', {
      intent: 'register',
      username: 'reg-four',
      password: 'secret-123',
      confirmPassword: 'secret-123',
    });
    expect(registerPage.status).toBe(429);
    expect(Number(registerPage.headers.get('Retry-After'))).toBeGreaterThan(0);

    // Login: two wrong passwords for a name, then that name is refused even with the right one…
    const login = (username: string, password: string) =>
      post('/api/login', { username, password });
    expect((await login('limit-admin', 'wrong-1')).status).toBe(401);
    expect((await login('limit-admin', 'wrong-2')).status).toBe(401);
    const locked = await login('limit-admin', 'limit-admin-pw');
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { error: string }).error).toMatch(TOO_MANY);
    const lockedPage = await form('/auth', {
      intent: 'login',
      username: 'limit-admin',
      password: 'limit-admin-pw',
    });
    expect(lockedPage.status).toBe(429);
    expect(Number(lockedPage.headers.get('Retry-After'))).toBeGreaterThan(0);
    // …while another name from the same address still gets an answer, until the address cap (6).
    expect((await login('someone-else', 'x')).status).toBe(401);
    expect((await login('someone-else-2', 'x')).status).toBe(401);
    expect((await login('someone-else-3', 'x')).status).toBe(429);

    // The counters are in the database: a restart does not reset them.
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = await startServer(dir, LIMITS);
    url = server.url;
    expect((await post('/api/contact', contact)).status).toBe(429);
    expect((await login('limit-admin', 'limit-admin-pw')).status).toBe(429);
  } finally {
    if (server) {
      server.proc.kill('SIGKILL');
      await server.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
