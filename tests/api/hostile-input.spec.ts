import net from 'node:net';
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { runScript } from '../e2e/fixtures';
import {
  SAME_ORIGIN,
  baseURL,
  disposeRoles,
  files,
  roles,
  unique,
  type FilePart,
  type Roles,
} from './helpers';
import { raw, type RawResponse } from './raw-http';

/**
 * Hostile input, through HTTP against the production server: every public and admin form
 * and every /api endpoint gets at least ten bad inputs (empty, whitespace-only, 1 MB
 * strings, wrong types, NoSQL operators, script tags, unknown fields, wrong content types,
 * traversal file names, truncated and oversized bodies…). Every answer must be a 4xx with
 * a message (JSON `{ error }` for /api, a page for forms) and never a 5xx; afterwards the
 * database and the uploads folder hold nothing carrying the test's marker string.
 *
 * Each group uses its own marker, embedded in every value it sends (and appended to the
 * bytes of every file), and scans the store and UPLOADS_DIR for it at the end, so the check
 * holds while other suites write to the same server in parallel.
 */

let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input] ${totalCases} hostile cases sent`);
});

let totalCases = 0;

type Role = 'anon' | 'user' | 'admin';
type Send = (ctx: APIRequestContext, m: string) => Promise<APIResponse | RawResponse>;
type Case = { name: string; send: Send; allow?: number[]; role?: Role; html?: boolean };

const MB = 1024 * 1024;
const big = (m: string, size = MB) => `${m}${'x'.repeat(size)}`;

function isRaw(res: APIResponse | RawResponse): res is RawResponse {
  return typeof (res as RawResponse).status === 'number';
}

async function cookieOf(role: Role): Promise<string> {
  const state = await r[role].storageState();
  return state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** A fixture file with the marker appended (JPEG/PNG/MP3 decoders ignore trailing bytes). */
const marked = (file: FilePart, m: string, name = file.name): FilePart => ({
  ...file,
  name,
  buffer: Buffer.concat([file.buffer, Buffer.from(m)]),
});

const junk = (m: string, name: string, mimeType: string): FilePart => ({
  name,
  mimeType,
  buffer: Buffer.from(`${m} this is not what it claims to be`),
});

function multipartBody(
  boundary: string,
  fields: Record<string, string>,
  file?: FilePart & { field: string },
) {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.mimeType}\r\n\r\n`,
      ),
      file.buffer,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

type ReqOptions = {
  data?: unknown;
  form?: Record<string, string>;
  multipart?: Record<string, string | FilePart>;
  headers?: Record<string, string>;
  maxRedirects?: number;
};

function bodySize(o: ReqOptions): number {
  if (o.data !== undefined)
    return typeof o.data === 'string' ? o.data.length : JSON.stringify(o.data).length;
  if (o.form) return new URLSearchParams(o.form).toString().length;
  if (o.multipart) {
    return Object.values(o.multipart).reduce(
      (n, v) => n + (typeof v === 'object' && v !== null ? v.buffer.length : String(v).length),
      0,
    );
  }
  return 0;
}

/**
 * Playwright's request client, except for bodies over 512 KB: Playwright reports a
 * connection reset when the server answers 413 before reading the whole body, where
 * browsers read the answer. Those go through `raw()`.
 */
async function req(
  ctx: APIRequestContext,
  method: 'post' | 'put' | 'delete',
  path: string,
  o: ReqOptions = {},
): Promise<APIResponse | RawResponse> {
  if (bodySize(o) < 512 * 1024)
    return ctx[method](path, o as Parameters<APIRequestContext['post']>[1]);
  const headers: Record<string, string> = { ...o.headers };
  const state = await ctx.storageState();
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  let body: Buffer;
  if (o.data !== undefined) {
    body = Buffer.from(typeof o.data === 'string' ? o.data : JSON.stringify(o.data));
    headers['Content-Type'] ??= 'application/json';
  } else if (o.form) {
    body = Buffer.from(new URLSearchParams(o.form).toString());
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else {
    const boundary = `----hostile${unique()}`;
    const fields: Record<string, string> = {};
    let file: (FilePart & { field: string }) | undefined;
    const extraFiles: Buffer[] = [];
    for (const [k, v] of Object.entries(o.multipart ?? {})) {
      if (typeof v !== 'object' || v === null) fields[k] = String(v);
      else if (!file) file = { ...v, field: k };
      else {
        extraFiles.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${v.name}"\r\nContent-Type: ${v.mimeType}\r\n\r\n`,
          ),
          v.buffer,
          Buffer.from('\r\n'),
        );
      }
    }
    const main = multipartBody(boundary, fields, file);
    // Put any further files before the closing boundary.
    const closing = Buffer.from(`--${boundary}--\r\n`);
    body = Buffer.concat([main.subarray(0, main.length - closing.length), ...extraFiles, closing]);
    headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
  }
  headers['Content-Length'] = String(body.length);
  return raw(method.toUpperCase(), path, headers, [body], { cookie });
}

// ---------------------------------------------------------------------------------------
// Generic JSON cases
// ---------------------------------------------------------------------------------------

/**
 * Bad inputs for a JSON endpoint. `valid(m)` is a valid body; `breakIt` makes it invalid
 * in one way the endpoint must refuse (so even the "otherwise fine" cases store nothing).
 */
function jsonCases(
  method: 'post' | 'put',
  path: string,
  fields: string[],
  valid: (m: string) => Record<string, unknown>,
  breakIt: (body: Record<string, unknown>) => Record<string, unknown>,
): Case[] {
  const send =
    (data: unknown, headers: Record<string, string> = {}) =>
    (ctx: APIRequestContext) =>
      req(ctx, method, path, {
        data: data as Record<string, unknown>,
        headers: { ...SAME_ORIGIN, ...headers },
      });
  const each = (m: string, value: (m: string) => unknown) =>
    Object.fromEntries(fields.map((f) => [f, value(m)]));
  return [
    { name: 'no body at all', send: (ctx) => req(ctx, method, path, { headers: SAME_ORIGIN }) },
    { name: 'empty JSON object', send: (ctx) => send({})(ctx) },
    { name: 'whitespace-only fields', send: (ctx) => send(each('', () => '   \t\n  '))(ctx) },
    { name: '1 MB strings (413)', send: (ctx, m) => send(each(m, (x) => big(x)))(ctx) },
    {
      name: '60 KB strings (over every field bound)',
      send: (ctx, m) => send(each(m, (x) => big(x, 60_000)))(ctx),
    },
    { name: 'numbers instead of strings', send: (ctx) => send(each('', () => 12345))(ctx) },
    {
      name: 'arrays and objects instead of strings',
      send: (ctx, m) => send(each(m, (x) => [x, { x }]))(ctx),
    },
    {
      name: 'NoSQL operators {"$ne": null}',
      send: (ctx) => send(each('', () => ({ $ne: null })))(ctx),
    },
    {
      name: 'NoSQL operators {"$gt": ""} and $where',
      send: (ctx) => send({ ...each('', () => ({ $gt: '' })), $where: 'sleep(1000)' })(ctx),
    },
    { name: 'a top-level array', send: (ctx, m) => send([valid(m)])(ctx) },
    {
      name: 'malformed JSON',
      send: (ctx, m) =>
        req(ctx, method, path, {
          data: `{"${fields[0]}": "${m}", `,
          headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        }),
    },
    {
      name: 'text/plain content type',
      send: (ctx, m) =>
        req(ctx, method, path, {
          data: JSON.stringify(valid(m)),
          headers: { ...SAME_ORIGIN, 'Content-Type': 'text/plain' },
        }),
    },
    {
      name: 'form body with operator keys (field[$ne]=x)',
      send: (ctx, m) =>
        req(ctx, method, path, {
          form: Object.fromEntries(fields.map((f) => [`${f}[$ne]`, m])),
          headers: SAME_ORIGIN,
        }),
    },
    {
      name: '__proto__ / constructor pollution',
      send: (ctx, m) =>
        req(ctx, method, path, {
          data: `{"__proto__":{"isAdmin":true,"polluted":"${m}"},"constructor":{"prototype":{"x":"${m}"}}}`,
          headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        }),
    },
    {
      name: '<script> tags in an otherwise invalid body',
      send: (ctx, m) => send(breakIt(each(m, (x) => `<script>alert("${x}")</script>`)))(ctx),
    },
    {
      name: 'NUL bytes and control characters, invalid',
      send: (ctx, m) => send(breakIt(each(m, (x) => `${x}\u0000\u0007\u202e`)))(ctx),
    },
    {
      name: 'unknown fields only',
      send: (ctx, m) => send({ foo: m, _id: m, id: 1, isAdmin: true, createdAt: m })(ctx),
    },
    {
      name: 'valid fields but one broken, plus unknown fields',
      send: (ctx, m) => send({ ...breakIt(valid(m)), isAdmin: true, _id: 'x' })(ctx),
    },
  ];
}

// ---------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------

type Scan = { counts: Record<string, number>; hits: string[]; fileHits: string[]; files: string[] };

function scan(marker: string): Scan {
  const out = runScript('tests/security/scan-marker.ts', { MARKER: marker });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Scan;
}

async function expectRefused(c: Case, res: APIResponse | RawResponse, label: string) {
  const status = isRaw(res) ? res.status : res.status();
  const body = isRaw(res) ? res.body : await res.text().catch(() => '');
  const type = isRaw(res)
    ? String(res.headers['content-type'] ?? '')
    : (res.headers()['content-type'] ?? '');
  const allowed = c.allow ?? [];
  expect.soft(status, `${label}: never a 5xx (${body.slice(0, 200)})`).toBeLessThan(500);
  if (allowed.includes(status)) return;
  expect
    .soft(status >= 400 && status < 500, `${label}: a 4xx, got ${status} (${body.slice(0, 200)})`)
    .toBe(true);
  if (status === 413 && body === 'closed early') return;
  if (c.html) {
    expect.soft(body.length, `${label}: a page with a message`).toBeGreaterThan(0);
    return;
  }
  expect.soft(type, `${label}: JSON`).toMatch(/application\/json/);
  let message: unknown = null;
  try {
    message = (JSON.parse(body) as { error?: unknown }).error;
  } catch {
    message = null;
  }
  expect
    .soft(
      typeof message === 'string' && message.length > 0,
      `${label}: an error message (${body.slice(0, 200)})`,
    )
    .toBe(true);
  // Never internals.
  expect.soft(body, `${label}: no stack trace`).not.toMatch(/at .+\(.+:\d+:\d+\)|node_modules/);
}

async function runGroup(name: string, groups: { endpoint: string; cases: Case[] }[]) {
  const marker = `hostile${unique()}`;
  for (const group of groups) {
    expect(group.cases.length, `${group.endpoint}: at least ten bad inputs`).toBeGreaterThanOrEqual(
      10,
    );
    for (const c of group.cases) {
      const ctx = r[c.role ?? 'anon'];
      const res = await c.send(ctx, marker).catch((error: unknown) => {
        throw new Error(`${group.endpoint} — ${c.name}: no answer (${String(error)})`);
      });
      totalCases += 1;
      await expectRefused(c, res, `${group.endpoint} — ${c.name}`);
    }
  }
  const after = scan(marker);
  const hits = after.hits.filter((h) => !h.startsWith('rate_limits:'));
  expect(hits, `${name}: nothing stored with the marker`).toEqual([]);
  expect(after.fileHits, `${name}: no upload file with the marker`).toEqual([]);
  // A `.part` may belong to an upload of a test running in parallel: only one that is still
  // there a few seconds later was left behind.
  let parts = after.files.filter((f) => f.endsWith('.part'));
  if (parts.length > 0) {
    await new Promise((r) => setTimeout(r, 4_000));
    const again = new Set(scan(marker).files);
    parts = parts.filter((f) => again.has(f));
  }
  expect(parts, `${name}: no half-written upload`).toEqual([]);
}

// ---------------------------------------------------------------------------------------
// /api: public and account
// ---------------------------------------------------------------------------------------

test('hostile input: public /api endpoints (contact, subscribe, login, register, logout, user)', async () => {
  const contactValid = (m: string) => ({
    name: `Name ${m}`,
    email: `${m}@example.com`,
    subject: 'Booking Inquiry',
    message: `Hello there ${m}, a long enough message.`,
  });
  const subscribeValid = (m: string) => ({ name: `Sub ${m}`, email: `${m}@example.com` });
  const creds = (m: string) => ({ username: m.slice(0, 40), password: `pw-${m}` });
  await runGroup('public api', [
    {
      endpoint: 'POST /api/contact',
      cases: [
        ...jsonCases(
          'post',
          '/api/contact',
          ['name', 'email', 'subject', 'message'],
          contactValid,
          (b) => ({ ...b, email: 'not-an-email' }),
        ),
        {
          name: 'subject outside the list',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: { ...contactValid(m), subject: `<b>${m}</b>` },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'message too short',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: { ...contactValid(m), message: 'hi' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'email with a CRLF header injection',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: { ...contactValid(m), email: `a@b.c\r\nBcc: ${m}@evil.example` },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
    {
      endpoint: 'POST /api/subscribe',
      cases: [
        ...jsonCases('post', '/api/subscribe', ['name', 'email'], subscribeValid, (b) => ({
          ...b,
          email: `${String(b.email)}@@`,
        })),
        {
          name: 'email 300 characters',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/subscribe', {
              data: { email: `${m}${'a'.repeat(300)}@example.com` },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'email as {"$regex": ".*"}',
          send: (ctx) =>
            req(ctx, 'post', '/api/subscribe', {
              data: { email: { $regex: '.*' } },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
    {
      endpoint: 'POST /api/login',
      cases: [
        ...jsonCases('post', '/api/login', ['username', 'password'], creds, (b) => ({
          ...b,
          password: '',
        })),
        // The classic: operators instead of credentials must log nobody in.
        {
          name: '{"username": {"$ne": null}, "password": {"$ne": null}}',
          send: (ctx) =>
            req(ctx, 'post', '/api/login', {
              data: { username: { $ne: null }, password: { $ne: null } },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'username "api-admin" with password {"$gt": ""}',
          send: (ctx) =>
            req(ctx, 'post', '/api/login', {
              data: { username: 'api-admin', password: { $gt: '' } },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'username[$regex]=.* as a form',
          send: (ctx) =>
            req(ctx, 'post', '/api/login', {
              form: { 'username[$regex]': '.*', 'password[$ne]': 'x' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'wrong password for a real user (401)',
          send: (ctx) =>
            req(ctx, 'post', '/api/login', {
              data: { username: 'api-admin', password: 'wrong-password' },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
    {
      endpoint: 'POST /api/register',
      cases: [
        ...jsonCases('post', '/api/register', ['username', 'password'], creds, (b) => ({
          ...b,
          password: '12',
        })),
        {
          name: 'username with spaces and HTML',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/register', {
              data: { username: `<img src=x onerror=alert(1)> ${m}`, password: 'secret-123' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'username of 51 characters',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/register', {
              data: { username: `${m}${'u'.repeat(51)}`, password: 'secret-123' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'username with a slash and dots (../)',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/register', {
              data: { username: `../${m}`, password: 'secret-123' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'password of 201 characters',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/register', {
              data: { username: m.slice(0, 40), password: 'p'.repeat(201) },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
    {
      endpoint: 'GET/POST /api/user, /api/logout',
      cases: [
        { name: 'GET /api/user anonymous (401)', send: (ctx) => ctx.get('/api/user') },
        {
          name: 'GET /api/user with a forged session cookie',
          send: (ctx) => ctx.get('/api/user', { headers: { Cookie: '__session=eyJ4Ijoi.forged' } }),
        },
        {
          name: 'GET /api/user with a 4 KB cookie',
          send: (ctx) =>
            ctx.get('/api/user', { headers: { Cookie: `__session=${'a'.repeat(4000)}` } }),
        },
        {
          name: 'GET /api/user with a signed-looking id of 1 KB',
          send: (ctx) =>
            ctx.get('/api/user', {
              headers: { Cookie: `__session=${encodeURIComponent(`"${'b'.repeat(1000)}".sig`)}` },
            }),
        },
        {
          name: 'POST /api/user (405)',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/user', { data: { username: m }, headers: SAME_ORIGIN }),
        },
        {
          name: 'DELETE /api/user (405)',
          send: (ctx) => req(ctx, 'delete', '/api/user', { headers: SAME_ORIGIN }),
        },
        { name: 'GET /api/logout (405)', send: (ctx) => ctx.get('/api/logout') },
        {
          name: 'POST /api/logout cross-origin',
          send: (ctx) =>
            req(ctx, 'post', '/api/logout', { headers: { Origin: 'https://evil.example' } }),
        },
        {
          name: 'PUT /api/logout (405)',
          send: (ctx) => req(ctx, 'put', '/api/logout', { headers: SAME_ORIGIN }),
        },
        {
          name: 'POST /api/contact cross-origin',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: contactValid(m),
              headers: { Origin: 'https://evil.example' },
            }),
        },
        {
          name: 'POST /api/subscribe with Sec-Fetch-Site cross-site',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/subscribe', {
              data: subscribeValid(m),
              headers: { 'Sec-Fetch-Site': 'cross-site' },
            }),
        },
      ],
    },
  ]);
});

// ---------------------------------------------------------------------------------------
// /api: public reads, ids and paths
// ---------------------------------------------------------------------------------------

test('hostile input: ids, slugs, queries and paths', async () => {
  const get =
    (path: string): Send =>
    (ctx) =>
      ctx.get(path);
  const idCases = (base: string, method: 'put' | 'delete', role: Role = 'admin'): Case[] =>
    [
      'abc',
      '-1',
      '0',
      '1.5',
      '1e3',
      '0x10',
      '99999999999999999999',
      '%24ne',
      '..%2F..%2Fetc%2Fpasswd',
      '%7B%22%24ne%22%3A1%7D',
      '%00',
      'null',
    ].map((id) => ({
      name: `${method.toUpperCase()} ${base}/${id}`,
      role,
      send: (ctx: APIRequestContext, m: string) =>
        method === 'put'
          ? req(ctx, 'put', `${base}/${id}`, { data: { title: m }, headers: SAME_ORIGIN })
          : req(ctx, 'delete', `${base}/${id}`, { headers: SAME_ORIGIN }),
    }));
  await runGroup('ids and paths', [
    {
      endpoint: 'GET /api/blog/:slug',
      cases: [
        '/api/blog/..%2F..%2Fetc%2Fpasswd',
        '/api/blog/%2e%2e',
        '/api/blog/%7B%22%24ne%22%3Anull%7D',
        '/api/blog/%24ne',
        `/api/blog/${'a'.repeat(2000)}`,
        '/api/blog/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
        '/api/blog/caf%C3%A9-%F0%9F%8E%B6',
        '/api/blog/%00',
        '/api/blog/%E0%A4%A',
        '/api/blog/a%20b',
      ].map((p) => ({ name: p.slice(0, 80), send: get(p) })),
    },
    {
      endpoint: 'GET /uploads/*',
      cases: [
        '/uploads/../package.json',
        '/uploads/%2e%2e/package.json',
        '/uploads/..%2F..%2Fpackage.json',
        '/uploads/audio/..%2F..%2F..%2Fetc%2Fpasswd',
        '/uploads/audio/%2e%2e%2f%2e%2e%2fdata%2fsession-secret',
        '/uploads/.%2e/.%2e/etc/passwd',
        '/uploads/audio/.hidden.part',
        '/uploads/audio/fallback.mp3%00.jpg',
        '/uploads/images/%5C..%5C..%5Cpackage.json',
        '/uploads/audio/%E0%A4%A',
        '/uploads/',
        '/uploads/images/does-not-exist.jpg',
      ].map((p) => ({ name: p, html: true, send: get(p) })),
    },
    { endpoint: 'PUT /api/admin/shows/:id', cases: idCases('/api/admin/shows', 'put') },
    { endpoint: 'DELETE /api/admin/tracks/:id', cases: idCases('/api/admin/tracks', 'delete') },
    { endpoint: 'DELETE /api/admin/gallery/:id', cases: idCases('/api/admin/gallery', 'delete') },
    { endpoint: 'DELETE /api/admin/blog/:id', cases: idCases('/api/admin/blog', 'delete') },
    {
      endpoint: 'DELETE /api/admin/subscribers/:id',
      cases: idCases('/api/admin/subscribers', 'delete'),
    },
    { endpoint: 'DELETE /api/admin/messages/:id', cases: idCases('/api/admin/messages', 'delete') },
    { endpoint: 'DELETE /api/admin/shows/:id', cases: idCases('/api/admin/shows', 'delete') },
    {
      endpoint: 'admin /api as a plain user and anonymous',
      cases: [
        ...(['/api/admin/subscribers', '/api/admin/messages', '/api/admin/theme'] as const).flatMap(
          (p) => [
            { name: `GET ${p} anonymous`, send: get(p) },
            { name: `GET ${p} as user`, role: 'user' as const, send: get(p) },
          ],
        ),
        {
          name: 'POST /api/admin/shows as user',
          role: 'user',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/shows', { data: { title: m }, headers: SAME_ORIGIN }),
        },
        {
          name: 'POST /api/admin/tracks/randomize-featured anonymous',
          send: (ctx) =>
            req(ctx, 'post', '/api/admin/tracks/randomize-featured', { headers: SAME_ORIGIN }),
        },
        {
          name: 'DELETE /api/admin/messages/1 as user',
          role: 'user',
          send: (ctx) => req(ctx, 'delete', '/api/admin/messages/1', { headers: SAME_ORIGIN }),
        },
        {
          name: 'POST /api/admin/theme as user',
          role: 'user',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/theme', { data: { heroTitle: m }, headers: SAME_ORIGIN }),
        },
        { name: 'GET /api/does-not-exist', send: get('/api/does-not-exist') },
        {
          name: 'POST /api/tracks (405)',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/tracks', { data: { title: m }, headers: SAME_ORIGIN }),
        },
      ],
    },
  ]);
});

test('malformed URLs and unusable requests: JSON { error } under /api, plain text on pages', async () => {
  // Each used to get Express's own HTML page (400 for a malformed %-escape, 500 for a Host
  // that makes no URL) instead of the site's answer.
  const cases: { method: string; path: string; host?: string }[] = [
    { method: 'GET', path: '/api/blog/%E0%A4%A' },
    { method: 'GET', path: '/api/%E0%A4%A' },
    { method: 'PUT', path: '/api/admin/shows/%E0%A4%A' },
    { method: 'DELETE', path: '/api/admin/tracks/%C0%AF' },
    { method: 'GET', path: '/api/tracks', host: 'bad host' },
    { method: 'GET', path: '/blog/%E0%A4%A' },
    { method: 'GET', path: '/uploads/audio/%E0%A4%A' },
    { method: 'GET', path: '/build/%E0%A4%A.js' },
    { method: 'GET', path: '/music', host: 'bad host' },
  ];
  for (const c of cases) {
    const label = `${c.method} ${c.path}${c.host ? ` (Host: ${c.host})` : ''}`;
    const res = await raw(c.method, c.path, c.host ? { Host: c.host } : {}, []);
    expect.soft(res.status, label).toBe(400);
    expect
      .soft(res.body, `${label}: no stack trace`)
      .not.toMatch(/at .+\(.+:\d+:\d+\)|node_modules/);
    expect.soft(res.body, `${label}: not Express's page`).not.toMatch(/<pre>|<!DOCTYPE/i);
    expect.soft(res.headers['x-request-id'], `${label}: a request id`).toMatch(/^[\w-]{8,}$/);
    expect.soft(res.headers['x-content-type-options'], `${label}: base headers`).toBe('nosniff');
    // A Host that is no host at all is refused by the trust boundary before anything else.
    const message = c.host ? 'Bad Request: unknown host' : 'Bad Request';
    if (c.path.startsWith('/api/')) {
      expect.soft(res.headers['content-type'], label).toMatch(/^application\/json/);
      expect.soft(JSON.parse(res.body) as unknown, label).toEqual({ error: message });
    } else {
      expect.soft(res.headers['content-type'], label).toMatch(/^text\/plain/);
      expect.soft(res.body.trim(), label).toBe(message);
    }
  }
});

// ---------------------------------------------------------------------------------------
// /api/admin: JSON bodies
// ---------------------------------------------------------------------------------------

test('hostile input: admin JSON endpoints (shows, theme, featured toggle)', async () => {
  const showValid = (m: string) => ({
    title: `Show ${m}`,
    venue: `Venue ${m}`,
    location: 'Asbury Park, NJ',
    date: '2030-05-01',
    time: '8:00 PM',
    ticketUrl: 'https://tickets.example.com/x',
    description: `About ${m}`,
  });
  // An existing show to PUT to; it must come out unchanged.
  const created = await r.admin.post('/api/admin/shows', {
    data: showValid(`target${unique()}`),
    headers: SAME_ORIGIN,
  });
  expect(created.status()).toBe(201);
  const show = (await created.json()) as { id: number };
  const themeBefore = await (await r.admin.get('/api/admin/theme')).json();
  const tracks = (await (await r.anon.get('/api/tracks')).json()) as {
    id: number;
    featured: boolean;
  }[];
  // The oldest track is seeded: the newest may be another test's, deleted meanwhile.
  const track = tracks.at(-1)!;
  const adminCases = (cases: Case[]) => cases.map((c) => ({ ...c, role: 'admin' as const }));

  await runGroup('admin json', [
    {
      endpoint: 'POST /api/admin/shows',
      cases: adminCases([
        ...jsonCases(
          'post',
          '/api/admin/shows',
          ['title', 'venue', 'location', 'date', 'time', 'description'],
          showValid,
          (b) => ({ ...b, date: '2030-02-30' }),
        ),
        {
          name: 'ticketUrl javascript:',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/shows', {
              data: { ...showValid(m), ticketUrl: 'javascript:alert(1)' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'ticketUrl data:',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/shows', {
              data: { ...showValid(m), ticketUrl: 'data:text/html,<script>alert(1)</script>' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'date as {"$gt": ""}',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/shows', {
              data: { ...showValid(m), date: { $gt: '' } },
              headers: SAME_ORIGIN,
            }),
        },
      ]),
    },
    {
      endpoint: 'PUT /api/admin/shows/:id',
      cases: adminCases(
        jsonCases(
          'put',
          `/api/admin/shows/${show.id}`,
          ['title', 'venue', 'location', 'date', 'time'],
          showValid,
          (b) => ({ ...b, time: '' }),
        ),
      ),
    },
    {
      endpoint: 'POST /api/admin/theme',
      cases: adminCases([
        ...jsonCases(
          'post',
          '/api/admin/theme',
          ['primary', 'variant', 'appearance', 'headerFont', 'bodyFont', 'heroTitle'],
          (m) => ({ ...(themeBefore as Record<string, unknown>), heroTitle: m }),
          (b) => ({ ...b, radius: 7 }),
        ),
        {
          name: 'primary colour with CSS injection',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/theme', {
              data: { ...(themeBefore as object), primary: `red;}</style><script>${m}</script>` },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'font outside the list',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/theme', {
              data: { ...(themeBefore as object), headerFont: `Comic ${m}` },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'radius as a string of digits 1e9',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/theme', {
              data: { ...(themeBefore as object), radius: '1e9', heroTitle: m },
              headers: SAME_ORIGIN,
            }),
        },
      ]),
    },
    {
      endpoint: 'PUT /api/admin/tracks/:id (JSON featured)',
      cases: adminCases([
        {
          name: 'featured as a string',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: 'yes' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'featured as {"$ne": false}',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: { $ne: false } },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'featured missing',
          send: (ctx, m) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { title: m },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'featured null',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: null },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'featured as a number',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: 1 },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'a top-level array',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: [{ featured: true }],
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'malformed JSON',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: '{"featured": tru',
              headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
            }),
        },
        {
          name: 'text/plain',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: '{"featured": true}',
              headers: { ...SAME_ORIGIN, 'Content-Type': 'text/plain' },
            }),
        },
        {
          name: '1 MB body',
          send: (ctx, m) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: true, pad: big(m) },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'unknown track id 999999',
          send: (ctx) =>
            req(ctx, 'put', '/api/admin/tracks/999999', {
              data: { featured: true },
              headers: SAME_ORIGIN,
            }),
        },
      ]),
    },
  ]);

  // The show and the theme are as they were.
  const shows = (await (await r.anon.get('/api/shows')).json()) as { id: number; title: string }[];
  expect(shows.find((s) => s.id === show.id)?.title).toMatch(/^Show target/);
  expect(await (await r.admin.get('/api/admin/theme')).json()).toEqual(themeBefore);
  const tracksAfter = (await (await r.anon.get('/api/tracks')).json()) as {
    id: number;
    featured: boolean;
  }[];
  expect(tracksAfter.find((t) => t.id === track.id)?.featured).toBe(track.featured);
  await r.admin.delete(`/api/admin/shows/${show.id}`, { headers: SAME_ORIGIN });
});

// ---------------------------------------------------------------------------------------
// /api/admin: multipart uploads
// ---------------------------------------------------------------------------------------

function uploadCases(
  method: 'post' | 'put',
  path: string,
  valid: (m: string) => Record<string, string>,
  fileField: 'image' | 'coverImage',
  breakIt: (fields: Record<string, string>) => Record<string, string>,
  extra: (m: string) => Record<string, FilePart> = () => ({}),
): Case[] {
  const mp = (fields: Record<string, string | FilePart>) => (ctx: APIRequestContext) =>
    req(ctx, method, path, { multipart: fields, headers: SAME_ORIGIN });
  const boundary = '----hostileBoundary7MA4YWxkTrZu0gW';
  const list: Case[] = [
    { name: 'no fields, no files', send: (ctx) => mp({})(ctx) },
    {
      name: 'whitespace-only fields, no file',
      send: (ctx, m) => mp(Object.fromEntries(Object.keys(valid(m)).map((k) => [k, '   '])))(ctx),
    },
    {
      name: 'text pretending to be an image',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: junk(m, 'cover.jpg', 'image/jpeg') })(ctx),
    },
    {
      name: 'traversal file name with junk content',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: junk(m, `../../../${m}.jpg`, 'image/jpeg') })(
          ctx,
        ),
    },
    {
      name: 'traversal file name, real image, broken field',
      send: (ctx, m) =>
        mp({
          ...breakIt(valid(m)),
          ...extra(m),
          [fileField]: marked(files.cover(), m, `..\\..\\${m}.jpg`),
        })(ctx),
    },
    {
      name: 'an SVG with a script as the image',
      send: (ctx, m) =>
        mp({
          ...valid(m),
          ...extra(m),
          [fileField]: {
            name: 'x.svg',
            mimeType: 'image/svg+xml',
            buffer: Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg"><script>alert("${m}")</script></svg>`,
            ),
          },
        })(ctx),
    },
    {
      name: 'an HTML file named .jpg',
      send: (ctx, m) =>
        mp({
          ...valid(m),
          ...extra(m),
          [fileField]: {
            name: `${m}.jpg`,
            mimeType: 'text/html',
            buffer: Buffer.from(`<html><script>${m}</script>`),
          },
        })(ctx),
    },
    {
      name: 'audio as the image',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: marked(files.mp3(), m, 'cover.jpg') })(ctx),
    },
    {
      name: 'file field sent as text',
      send: (ctx, m) => mp({ ...breakIt(valid(m)), [fileField]: `/uploads/images/${m}.jpg` })(ctx),
    },
    {
      name: '1 MB title (field limit)',
      send: (ctx, m) =>
        mp({ ...valid(m), title: big(m), ...extra(m), [fileField]: marked(files.cover(), m) })(ctx),
    },
    {
      name: 'operator keys title[$ne]',
      send: (ctx, m) => mp({ 'title[$ne]': m, [fileField]: marked(files.cover(), m) })(ctx),
    },
    {
      name: '<script> in a field, another field broken',
      send: (ctx, m) =>
        mp({
          ...breakIt(
            Object.fromEntries(Object.keys(valid(m)).map((k) => [k, `<script>${m}</script>`])),
          ),
          ...extra(m),
          [fileField]: marked(files.cover(), m),
        })(ctx),
    },
    {
      name: 'JSON instead of multipart',
      send: (ctx, m) => req(ctx, method, path, { data: valid(m), headers: SAME_ORIGIN }),
    },
    {
      name: 'urlencoded instead of multipart',
      send: (ctx, m) => req(ctx, method, path, { form: valid(m), headers: SAME_ORIGIN }),
    },
    {
      name: 'multipart without a boundary',
      send: async (ctx, m) =>
        req(ctx, method, path, {
          data: `title=${m}`,
          headers: { ...SAME_ORIGIN, 'Content-Type': 'multipart/form-data' },
        }),
    },
    {
      name: 'declared Content-Length of 200 MB',
      send: async (_ctx, m) =>
        raw(
          method.toUpperCase(),
          path,
          {
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(200 * MB),
          },
          [multipartBody(boundary, valid(m)).subarray(0, 100)],
          {
            cookie: await cookieOf('admin'),
            endEarly: true,
          },
        ),
    },
    {
      name: 'truncated multipart (no closing boundary)',
      send: async (_ctx, m) => {
        const full = multipartBody(boundary, valid(m), {
          ...marked(files.cover(), m),
          field: fileField,
        });
        const cut = full.subarray(0, full.length - 400);
        return raw(
          method.toUpperCase(),
          path,
          {
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(cut.length),
          },
          [cut],
          {
            cookie: await cookieOf('admin'),
          },
        );
      },
    },
    {
      name: 'garbage between boundaries',
      send: async (_ctx, m) => {
        const body = Buffer.from(
          `--${boundary}\r\nthis is not a header\r\n\r\n${m}\r\n--${boundary}--\r\n`,
        );
        return raw(
          method.toUpperCase(),
          path,
          {
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(body.length),
          },
          [body],
          {
            cookie: await cookieOf('admin'),
          },
        );
      },
    },
    {
      name: 'image of 11 MB (over the 10 MB limit)',
      send: (ctx, m) =>
        mp({
          ...valid(m),
          ...extra(m),
          [fileField]: {
            name: 'huge.jpg',
            mimeType: 'image/jpeg',
            buffer: Buffer.concat([files.cover().buffer, Buffer.alloc(11 * MB, 0), Buffer.from(m)]),
          },
        })(ctx),
    },
    {
      name: 'as a plain user',
      role: 'user',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: marked(files.cover(), m) })(ctx),
    },
    {
      name: 'anonymous',
      role: 'anon',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: marked(files.cover(), m) })(ctx),
    },
  ];
  return list.map((c) => ({ role: 'admin' as Role, ...c }));
}

test('hostile input: admin uploads (tracks, gallery, blog)', async () => {
  test.setTimeout(180_000);
  const trackValid = (m: string) => ({
    title: `Track ${m}`,
    artist: 'Night Shore',
    duration: '3:45',
    featured: 'false',
  });
  const galleryValid = (m: string) => ({ title: `Image ${m}`, description: `About ${m}` });
  const blogValid = (m: string) => ({
    title: `Post ${m}`,
    slug: `post-${m.toLowerCase()}`,
    content: `Content ${m}`,
    excerpt: `Excerpt ${m}`,
    category: 'NEWS',
  });
  const audio = (m: string) => ({ audioFile: marked(files.mp3(), m) });

  // Existing items for the PUT cases (created cleanly, without the group's marker).
  const seed = unique();
  const gallery = (await (
    await r.admin.post('/api/admin/gallery', {
      multipart: { title: `Target ${seed}`, image: files.cover() },
      headers: SAME_ORIGIN,
    })
  ).json()) as { id: number; title: string; imageUrl: string };
  const blog = (await (
    await r.admin.post('/api/admin/blog', {
      multipart: {
        title: `Target ${seed}`,
        slug: `target-${seed}`,
        content: 'Body text.',
        excerpt: 'Short.',
        category: 'NEWS',
        image: files.cover(),
      },
      headers: SAME_ORIGIN,
    })
  ).json()) as { id: number; title: string; imageUrl: string };
  const track = (await (
    await r.admin.post('/api/admin/tracks', {
      multipart: {
        title: `Target ${seed}`,
        duration: '1:00',
        featured: 'false',
        coverImage: files.cover(),
        audioFile: files.mp3(),
      },
      headers: SAME_ORIGIN,
    })
  ).json()) as { id: number; title: string; coverImage: string; audioFile: string };
  expect(gallery.id && blog.id && track.id).toBeTruthy();

  await runGroup('admin uploads', [
    {
      endpoint: 'POST /api/admin/tracks',
      cases: uploadCases(
        'post',
        '/api/admin/tracks',
        trackValid,
        'coverImage',
        (f) => ({ ...f, duration: '99:99:99' }),
        audio,
      ),
    },
    {
      endpoint: 'POST /api/admin/tracks (audio file)',
      cases: (
        [
          {
            name: 'text as audio',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: junk(m, 'a.mp3', 'audio/mpeg'),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'image as audio',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.cover(), m, 'a.mp3'),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'audio file named ../../x.mp3 with junk',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: junk(m, '../../x.mp3', 'audio/mpeg'),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'no audio file',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: { ...trackValid(m), coverImage: marked(files.cover(), m) },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'valid files, empty title',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  title: ' ',
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'valid files, type outside the list',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  type: `Mixtape ${m}`,
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'valid files, artist of 1 MB',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  artist: big(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'two audio files',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  title: '',
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.wav(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'audio with a NUL in the file name',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  duration: 'x',
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m, 'a\u0000.mp3'),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'featured as {"$ne"}',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  'featured[$ne]': 'x',
                  title: '',
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
        ] satisfies Case[]
      ).map((c) => ({ ...c, role: 'admin' as const })),
    },
    {
      endpoint: 'PUT /api/admin/tracks/:id',
      cases: uploadCases('put', `/api/admin/tracks/${track.id}`, trackValid, 'coverImage', (f) => ({
        ...f,
        title: '',
      })),
    },
    {
      endpoint: 'POST /api/admin/gallery',
      cases: uploadCases('post', '/api/admin/gallery', galleryValid, 'image', (f) => ({
        ...f,
        title: '',
      })),
    },
    {
      endpoint: 'PUT /api/admin/gallery/:id',
      cases: uploadCases('put', `/api/admin/gallery/${gallery.id}`, galleryValid, 'image', (f) => ({
        ...f,
        title: '',
      })),
    },
    {
      endpoint: 'POST /api/admin/blog',
      cases: uploadCases('post', '/api/admin/blog', blogValid, 'image', (f) => ({
        ...f,
        slug: 'Not A Slug!',
      })),
    },
    {
      endpoint: 'POST /api/admin/blog (slugs)',
      cases: [
        'Ünïcödé-slug',
        'a',
        '../etc',
        'slug with spaces',
        'UPPER',
        '-leading',
        'trailing-',
        'double--dash',
        '<script>',
        'ok/slash',
        `${'a'.repeat(121)}`,
      ].map((slug) => ({
        name: `slug ${JSON.stringify(slug.slice(0, 30))}`,
        role: 'admin' as const,
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', '/api/admin/blog', {
            multipart: { ...blogValid(m), slug, image: marked(files.cover(), m) },
            headers: SAME_ORIGIN,
          }),
      })),
    },
    {
      endpoint: 'PUT /api/admin/blog/:id',
      cases: uploadCases('put', `/api/admin/blog/${blog.id}`, blogValid, 'image', (f) => ({
        ...f,
        slug: 'x',
      })),
    },
  ]);

  // The existing items are untouched.
  const images = (await (await r.anon.get('/api/gallery')).json()) as {
    id: number;
    title: string;
    imageUrl: string;
  }[];
  expect(images.find((g) => g.id === gallery.id)).toMatchObject({
    title: gallery.title,
    imageUrl: gallery.imageUrl,
  });
  expect(await (await r.anon.get(`/api/blog/target-${seed}`)).json()).toMatchObject({
    title: blog.title,
    imageUrl: blog.imageUrl,
  });
  const tracks = (await (await r.anon.get('/api/tracks')).json()) as { id: number }[];
  expect(tracks.find((t) => t.id === track.id)).toMatchObject({
    title: track.title,
    coverImage: track.coverImage,
    audioFile: track.audioFile,
  });
  for (const url of [gallery.imageUrl, blog.imageUrl, track.coverImage, track.audioFile]) {
    expect((await r.anon.get(url)).status(), url).toBe(200);
  }
  await r.admin.delete(`/api/admin/gallery/${gallery.id}`, { headers: SAME_ORIGIN });
  await r.admin.delete(`/api/admin/blog/${blog.id}`, { headers: SAME_ORIGIN });
  await r.admin.delete(`/api/admin/tracks/${track.id}`, { headers: SAME_ORIGIN });
});

// ---------------------------------------------------------------------------------------
// Page forms (the HTML actions the site's own forms post to)
// ---------------------------------------------------------------------------------------

function formCases(
  path: string,
  intent: Record<string, string>,
  fields: string[],
  valid: (m: string) => Record<string, string>,
  breakIt: (f: Record<string, string>) => Record<string, string>,
  role: Role = 'anon',
): Case[] {
  const post = (form: Record<string, string>) => (ctx: APIRequestContext) =>
    req(ctx, 'post', path, { form: { ...intent, ...form }, maxRedirects: 0 });
  const each = (v: (f: string) => string) => Object.fromEntries(fields.map((f) => [f, v(f)]));
  const cases: Case[] = [
    { name: 'no fields', send: (ctx) => post({})(ctx) },
    { name: 'whitespace-only fields', send: (ctx) => post(each(() => '  \t  '))(ctx) },
    { name: '1 MB values', send: (ctx, m) => post(each(() => big(m)))(ctx) },
    {
      name: '6 KB values with one field broken',
      send: (ctx, m) => post(breakIt(each(() => big(m, 6_000))))(ctx),
    },
    {
      name: 'operator keys (field[$ne]=x)',
      send: (ctx, m) => post(Object.fromEntries(fields.map((f) => [`${f}[$ne]`, m])))(ctx),
    },
    {
      name: 'operator-looking values ({"$ne":null})',
      send: (ctx, m) => post(breakIt(each(() => `{"$ne":null,"m":"${m}"}`)))(ctx),
    },
    {
      name: '<script> tags, one field broken',
      send: (ctx, m) => post(breakIt(each(() => `<script>alert("${m}")</script>`)))(ctx),
    },
    {
      name: 'NUL and RTL override characters, one field broken',
      send: (ctx, m) => post(breakIt(each(() => `${m}\u0000\u202e`)))(ctx),
    },
    {
      name: 'unknown fields with one field broken',
      send: (ctx, m) =>
        post({ ...breakIt(valid(m)), isAdmin: 'true', _id: m, ['__proto__']: m })(ctx),
    },
    {
      name: 'JSON body instead of a form',
      send: (ctx, m) =>
        req(ctx, 'post', path, { data: { ...intent, ...valid(m) }, maxRedirects: 0 }),
    },
    {
      name: 'text/plain body',
      send: (ctx, m) =>
        req(ctx, 'post', path, {
          data: `${Object.keys(intent)[0] ?? 'x'}=${m}`,
          headers: { 'Content-Type': 'text/plain' },
          maxRedirects: 0,
        }),
    },
    {
      name: 'multipart with a file where text belongs',
      send: (ctx, m) =>
        req(ctx, 'post', path, {
          multipart: {
            ...intent,
            ...breakIt(valid(m)),
            [fields[0]!]: junk(m, `../${m}.txt`, 'text/plain'),
          },
          maxRedirects: 0,
        }),
    },
    { name: 'one field broken', send: (ctx, m) => post(breakIt(valid(m)))(ctx) },
  ];
  return cases.map((c) => ({ ...c, role, html: true }));
}

test('hostile input: public and account page forms', async () => {
  // The oldest post is seeded: the newest may be another test's, deleted meanwhile.
  const slug = ((await (await r.anon.get('/api/blog')).json()) as { slug: string }[]).at(-1)!.slug;
  const contact = (m: string) => ({
    name: `N ${m}`,
    email: `${m}@example.com`,
    subject: 'Booking Inquiry',
    message: `Hello ${m}, long enough.`,
  });
  const subscribe = (m: string) => ({ name: `S ${m}`, email: `${m}@example.com`, privacy: 'on' });
  await runGroup('public forms', [
    {
      endpoint: 'POST /contact',
      cases: formCases(
        '/contact',
        { intent: 'contact' },
        ['name', 'email', 'subject', 'message'],
        contact,
        (f) => ({ ...f, email: 'nope' }),
      ),
    },
    {
      endpoint: 'POST / (newsletter)',
      cases: formCases('/', { intent: 'subscribe' }, ['name', 'email'], subscribe, (f) => ({
        ...f,
        privacy: '',
      })),
    },
    {
      endpoint: `POST /blog/${slug} (newsletter)`,
      cases: formCases(
        `/blog/${slug}`,
        { intent: 'subscribe' },
        ['email'],
        (m) => ({ email: `${m}@example.com`, privacy: 'on' }),
        (f) => ({ ...f, email: 'x@' }),
      ),
    },
    {
      endpoint: 'POST /auth (login)',
      cases: [
        ...formCases(
          '/auth',
          { intent: 'login' },
          ['username', 'password'],
          (m) => ({ username: m.slice(0, 40), password: m }),
          (f) => ({ ...f, password: '' }),
        ),
        {
          name: 'username[$ne]= & password[$ne]= logs nobody in',
          html: true,
          send: (ctx) =>
            req(ctx, 'post', '/auth', {
              form: { intent: 'login', 'username[$ne]': 'x', 'password[$ne]': 'x' },
              maxRedirects: 0,
            }),
        },
        {
          name: 'redirectTo to another site with bad credentials',
          html: true,
          send: (ctx, m) =>
            req(ctx, 'post', '/auth', {
              form: {
                intent: 'login',
                username: m.slice(0, 40),
                password: 'x',
                redirectTo: 'https://evil.example/',
              },
              maxRedirects: 0,
            }),
        },
      ],
    },
    {
      endpoint: 'POST /auth (register)',
      cases: formCases(
        '/auth',
        { intent: 'register' },
        ['username', 'password', 'confirmPassword'],
        (m) => ({
          username: m.slice(0, 40),
          password: 'secret-123',
          confirmPassword: 'secret-123',
        }),
        (f) => ({ ...f, confirmPassword: 'different-1' }),
      ),
    },
    {
      endpoint: 'POST /account (password change)',
      cases: formCases(
        '/account',
        {},
        ['currentPassword', 'newPassword', 'confirmPassword'],
        (m) => ({ currentPassword: 'wrong', newPassword: `n-${m}`, confirmPassword: `n-${m}` }),
        (f) => ({ ...f, confirmPassword: 'mismatch' }),
        'user',
      ),
    },
    {
      endpoint: 'honeypot (the bot gets the success answer, nothing is stored)',
      cases: [
        {
          name: 'contact form with the website field',
          html: true,
          allow: [302, 303],
          send: (ctx, m) =>
            req(ctx, 'post', '/contact', {
              form: { intent: 'contact', ...contact(m), website: 'http://spam.example' },
              maxRedirects: 0,
            }),
        },
        {
          name: 'home newsletter with the website field',
          html: true,
          allow: [302, 303],
          send: (ctx, m) =>
            req(ctx, 'post', '/', {
              form: { intent: 'subscribe', ...subscribe(m), website: 'spam' },
              maxRedirects: 0,
            }),
        },
        {
          name: 'post newsletter with the website field',
          html: true,
          allow: [302, 303],
          send: (ctx, m) =>
            req(ctx, 'post', `/blog/${slug}`, {
              form: { intent: 'subscribe', email: `${m}@example.com`, privacy: 'on', website: 'x' },
              maxRedirects: 0,
            }),
        },
        {
          name: '/api/contact with the website field',
          allow: [201],
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: { ...contact(m), website: 'spam' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: '/api/subscribe with the website field',
          allow: [201],
          send: (ctx, m) =>
            req(ctx, 'post', '/api/subscribe', {
              data: { email: `${m}@example.com`, website: 'spam' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'contact form, website as a file name',
          html: true,
          allow: [302, 303],
          send: (ctx, m) =>
            req(ctx, 'post', '/contact', {
              form: { intent: 'contact', ...contact(m), website: '../../x' },
              maxRedirects: 0,
            }),
        },
        {
          name: 'home newsletter, website only',
          html: true,
          send: (ctx, m) =>
            req(ctx, 'post', '/', { form: { intent: 'subscribe', website: m }, maxRedirects: 0 }),
        },
        {
          name: 'unknown intent on /',
          html: true,
          send: (ctx, m) => req(ctx, 'post', '/', { form: { intent: m }, maxRedirects: 0 }),
        },
        {
          name: 'unknown intent on /contact',
          html: true,
          send: (ctx, m) =>
            req(ctx, 'post', '/contact', { form: { intent: `x${m}` }, maxRedirects: 0 }),
        },
        {
          name: 'POST to an unknown page',
          html: true,
          send: (ctx, m) =>
            req(ctx, 'post', `/no-such-page-${m}`, { form: { a: m }, maxRedirects: 0 }),
        },
      ],
    },
  ]);
});

test('hostile input: admin page forms', async () => {
  const show = (m: string) => ({
    title: `S ${m}`,
    venue: `V ${m}`,
    location: 'NJ',
    date: '2030-01-01',
    time: '8:00 PM',
    ticketUrl: '',
    description: m,
  });
  const theme = (await (await r.admin.get('/api/admin/theme')).json()) as Record<string, string>;
  const tracks = (await (await r.anon.get('/api/tracks')).json()) as {
    id: number;
    featured: boolean;
  }[];
  const upload = (
    path: string,
    valid: (m: string) => Record<string, string>,
    fileField: string,
    breakIt: (f: Record<string, string>) => Record<string, string>,
  ): Case[] =>
    [
      {
        name: 'no fields',
        send: (ctx: APIRequestContext) =>
          req(ctx, 'post', path, { multipart: {}, maxRedirects: 0 }),
      },
      {
        name: 'junk as the image',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: { ...valid(m), [fileField]: junk(m, 'x.jpg', 'image/jpeg') },
            maxRedirects: 0,
          }),
      },
      {
        name: 'traversal file name, broken field',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: {
              ...breakIt(valid(m)),
              [fileField]: marked(files.cover(), m, `../../${m}.jpg`),
            },
            maxRedirects: 0,
          }),
      },
      {
        name: '1 MB title',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: { ...valid(m), title: big(m), [fileField]: marked(files.cover(), m) },
            maxRedirects: 0,
          }),
      },
      {
        name: 'operator keys',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: { 'title[$ne]': m, [fileField]: marked(files.cover(), m) },
            maxRedirects: 0,
          }),
      },
      {
        name: '<script> title, broken field',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: {
              ...breakIt(
                Object.fromEntries(Object.keys(valid(m)).map((k) => [k, `<script>${m}</script>`])),
              ),
              [fileField]: marked(files.cover(), m),
            },
            maxRedirects: 0,
          }),
      },
      {
        name: 'urlencoded instead of multipart',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, { form: valid(m), maxRedirects: 0 }),
      },
      {
        name: 'JSON instead of multipart',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, { data: valid(m), maxRedirects: 0 }),
      },
      {
        name: 'whitespace fields',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: Object.fromEntries(Object.keys(valid(m)).map((k) => [k, '  '])),
            maxRedirects: 0,
          }),
      },
      {
        name: 'SVG with a script',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: {
              ...valid(m),
              [fileField]: {
                name: 'x.svg',
                mimeType: 'image/svg+xml',
                buffer: Buffer.from(`<svg><script>${m}</script></svg>`),
              },
            },
            maxRedirects: 0,
          }),
      },
      {
        name: 'truncated multipart',
        send: async (_ctx: APIRequestContext, m: string) => {
          const b = '----pageBoundary';
          const full = multipartBody(b, valid(m), {
            ...marked(files.cover(), m),
            field: fileField,
          });
          const cut = full.subarray(0, full.length - 300);
          return raw(
            'POST',
            path,
            {
              'Content-Type': `multipart/form-data; boundary=${b}`,
              'Content-Length': String(cut.length),
            },
            [cut],
            { cookie: await cookieOf('admin') },
          );
        },
      },
      {
        name: 'as a plain user',
        role: 'user' as Role,
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: { ...valid(m), [fileField]: marked(files.cover(), m) },
            maxRedirects: 0,
          }),
      },
    ].map((c) => ({
      role: 'admin' as Role,
      html: true,
      allow: c.role === 'user' ? [302] : [],
      ...c,
    }));

  await runGroup('admin forms', [
    {
      endpoint: 'POST /admin/shows/new',
      cases: formCases(
        '/admin/shows/new',
        {},
        ['title', 'venue', 'location', 'date', 'time', 'description'],
        show,
        (f) => ({ ...f, date: '2030-13-45' }),
        'admin',
      ),
    },
    {
      endpoint: 'POST /admin/settings',
      cases: formCases(
        '/admin/settings',
        {},
        ['primary', 'variant', 'appearance', 'headerFont', 'bodyFont', 'heroTitle'],
        (m) => ({ ...theme, radius: String(theme.radius), heroTitle: m }),
        (f) => ({ ...f, radius: '9' }),
        'admin',
      ),
    },
    {
      endpoint: 'POST /admin/newsletter',
      cases: formCases(
        '/admin/newsletter',
        {},
        ['subject', 'content'],
        (m) => ({ subject: `S ${m}`, content: `Content ${m} long enough` }),
        (f) => ({ ...f, subject: 'x' }),
        'admin',
      ),
    },
    {
      endpoint: 'POST /admin/tracks (featured toggle)',
      cases: ['abc', '-1', '999999', '{"$ne":null}', '', '1.5', '../1', '0x1', ' ', '1e2'].map(
        (id) => ({
          name: `toggle id ${JSON.stringify(id)}`,
          role: 'admin' as const,
          html: true,
          // Failures come back as a redirect with an error toast (the list page shows it).
          allow: [302],
          send: (ctx: APIRequestContext) =>
            req(ctx, 'post', '/admin/tracks', {
              form: { intent: 'toggle-featured', id, featured: 'true' },
              maxRedirects: 0,
            }),
        }),
      ),
    },
    {
      endpoint: 'POST /admin/tracks/new',
      cases: upload(
        '/admin/tracks/new',
        (m) => ({ title: `T ${m}`, duration: '3:00', featured: 'false' }),
        'coverImage',
        (f) => ({ ...f, duration: 'abc' }),
      ),
    },
    {
      endpoint: 'POST /admin/gallery/new',
      cases: upload(
        '/admin/gallery/new',
        (m) => ({ title: `G ${m}`, description: m }),
        'image',
        (f) => ({ ...f, title: '' }),
      ),
    },
    {
      endpoint: 'POST /admin/blog/new',
      cases: upload(
        '/admin/blog/new',
        (m) => ({
          title: `B ${m}`,
          slug: `b-${m.toLowerCase()}`,
          content: m,
          excerpt: m,
          category: 'NEWS',
        }),
        'image',
        (f) => ({ ...f, slug: 'Bad Slug' }),
      ),
    },
  ]);
  // The featured flags did not move.
  const after = (await (await r.anon.get('/api/tracks')).json()) as {
    id: number;
    featured: boolean;
  }[];
  for (const t of tracks) {
    const now = after.find((a) => a.id === t.id);
    if (now) expect(now.featured, `track ${t.id}`).toBe(t.featured);
  }
  expect(await (await r.admin.get('/api/admin/theme')).json()).toEqual(theme);
});

// ---------------------------------------------------------------------------------------
// HTML in text fields is shown as text
// ---------------------------------------------------------------------------------------

test('HTML typed into text fields is rendered as text on public and admin pages', async () => {
  const m = unique();
  const payload = `<img src=x onerror="window.__pwned_${m}=1"><script>window.__pwned_${m}=1</script><b>bold-${m}</b>`;
  const escaped = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const show = await r.admin.post('/api/admin/shows', {
    data: {
      title: payload,
      venue: payload,
      location: 'Asbury Park, NJ',
      date: '2031-06-01',
      time: '9:00 PM',
      description: payload,
    },
    headers: SAME_ORIGIN,
  });
  expect(show.status()).toBe(201);
  const post = await r.admin.post('/api/admin/blog', {
    multipart: {
      title: `Title ${payload}`,
      slug: `html-${m}`,
      content: `Para ${payload}\n\nMore`,
      excerpt: payload.slice(0, 200),
      category: 'NEWS',
      image: files.cover(),
    },
    headers: SAME_ORIGIN,
  });
  expect(post.status()).toBe(201);
  const message = await r.anon.post('/api/contact', {
    data: {
      name: `<b>bold-${m}</b>`,
      email: `html-${m}@example.com`,
      subject: 'Booking Inquiry',
      message: `Hello ${payload}`,
    },
    headers: SAME_ORIGIN,
  });
  expect(message.status()).toBe(201);
  const messageId = ((await message.json()) as { id: number }).id;

  for (const [ctx, path] of [
    [r.anon, '/shows'],
    [r.anon, `/blog/html-${m}`],
    [r.anon, '/blog'],
    [r.admin, '/admin/messages'],
    [r.admin, `/admin/messages/${messageId}`],
  ] as const) {
    const html = await (await ctx.get(path)).text();
    expect(html, `${path} shows the text`).toContain(escaped(`<b>bold-${m}</b>`));
    expect(html, `${path} has no injected element`).not.toContain(`<b>bold-${m}</b>`);
    expect(html, `${path} has no injected script`).not.toContain(`<script>window.__pwned_${m}`);
    expect(html, `${path} has no injected handler`).not.toMatch(
      new RegExp(`<img src=x onerror="window.__pwned_${m}`),
    );
  }
  const showId = ((await show.json()) as { id: number }).id;
  await r.admin.delete(`/api/admin/shows/${showId}`, { headers: SAME_ORIGIN });
  await r.admin.delete(`/api/admin/blog/${((await post.json()) as { id: number }).id}`, {
    headers: SAME_ORIGIN,
  });
  await r.admin.delete(`/api/admin/messages/${messageId}`, { headers: SAME_ORIGIN });
});

// ---------------------------------------------------------------------------------------
// A body that ends before its Content-Length
// ---------------------------------------------------------------------------------------

/**
 * Send `body` under a `Content-Length` that promises `extra` more bytes, then half-close
 * the connection (FIN) and read whatever answer comes. The multipart body itself is
 * complete (closing boundary included): only the byte count says it was cut short.
 */
function halfClosed(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  delayMs: number,
  extra = 1_000,
): Promise<{ status: number; text: string }> {
  const url = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        `Origin: ${baseURL}`,
        `Content-Length: ${body.length + extra}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(body);
      setTimeout(() => socket.end(), delayMs);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text });
    });
  });
}

function multipartOf(boundary: string, parts: Record<string, string | FilePart>): Buffer {
  const out: Buffer[] = [];
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') {
      out.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        ),
      );
    } else {
      out.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.mimeType}\r\n\r\n`,
        ),
        value.buffer,
        Buffer.from('\r\n'),
      );
    }
  }
  out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

test('a complete multipart body under a longer Content-Length, half-closed, stores nothing', async () => {
  test.setTimeout(120_000);
  const m = `halfclosed${unique()}`;
  const cookie = await cookieOf('admin');
  const target = (await (
    await r.admin.post('/api/admin/gallery', {
      multipart: { title: `Target ${m.slice(10)}`, image: files.cover() },
      headers: SAME_ORIGIN,
    })
  ).json()) as { id: number; title: string; imageUrl: string };

  const track = (x: string) => ({
    title: `Track ${x}`,
    artist: 'Night Shore',
    duration: '3:45',
    featured: 'false',
    coverImage: marked(files.cover(), x),
    audioFile: marked(files.mp3(), x),
  });
  const image = (x: string) => ({
    title: `Image ${x}`,
    description: x,
    image: marked(files.cover(), x),
  });
  const post = (x: string) => ({
    title: `Post ${x}`,
    slug: `post-${x.toLowerCase()}`,
    content: x,
    excerpt: x,
    category: 'NEWS',
    image: marked(files.cover(), x),
  });
  const sends: [string, string, Record<string, string | FilePart>][] = [
    ['POST', '/api/admin/gallery', image(m)],
    ['PUT', `/api/admin/gallery/${target.id}`, image(m)],
    ['POST', '/api/admin/tracks', track(m)],
    ['POST', '/api/admin/blog', post(m)],
    ['POST', '/admin/gallery/new', image(m)],
    ['POST', `/admin/gallery/${target.id}/edit`, image(m)],
    ['POST', '/admin/tracks/new', track(m)],
    ['POST', '/admin/blog/new', post(m)],
  ];
  // FIN with the body, while the server reads it, and after it could have answered.
  for (const delayMs of [0, 30, 300]) {
    for (const [method, path, parts] of sends) {
      const boundary = `----half${unique()}`;
      const answer = await halfClosed(
        method,
        path,
        { 'Content-Type': `multipart/form-data; boundary=${boundary}`, Cookie: cookie },
        multipartOf(boundary, parts),
        delayMs,
      );
      expect.soft(answer.status, `${method} ${path}, FIN after ${delayMs} ms: refused`).toBe(400);
    }
  }
  // The server may still be working on a request whose client is gone: give it time.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const after = scan(m);
  expect(after.hits, 'nothing stored').toEqual([]);
  // Every file sent carries the marker: a stored one, or a `.part` left behind, is a hit.
  expect(after.fileHits, 'no upload file left').toEqual([]);
  const kept = (await (await r.anon.get('/api/gallery')).json()) as {
    id: number;
    title: string;
    imageUrl: string;
  }[];
  expect(kept.find((g) => g.id === target.id)).toMatchObject({
    title: target.title,
    imageUrl: target.imageUrl,
  });
  await r.admin.delete(`/api/admin/gallery/${target.id}`, { headers: SAME_ORIGIN });
});
