import { type APIRequestContext, type APIResponse, expect } from '@playwright/test';

import { runScript } from '../../e2e/fixtures';
import { type FilePart, type Roles, SAME_ORIGIN, unique } from '../helpers';
import { raw, type RawResponse } from '../raw-http';

/**
 * Shared pieces of the hostile-input specs (tests/api/hostile/*.spec.ts, Playwright project
 * `api`): through HTTP against the production server, every public and admin form and every
 * /api endpoint gets at least ten bad inputs (empty, whitespace-only, 1 MB strings, wrong
 * types, NoSQL operators, script tags, unknown fields, wrong content types, traversal file
 * names, truncated and oversized bodies…). Every answer must be a 4xx with a message (JSON
 * `{ error }` for /api, a page for forms) and never a 5xx; afterwards the database and the
 * uploads folder hold nothing carrying the test's marker string.
 *
 * Each group uses its own marker, embedded in every value it sends (and appended to the
 * bytes of every file), and scans the store and UPLOADS_DIR for it at the end, so the check
 * holds while other suites write to the same server in parallel.
 *
 * Not a spec file (no `.spec.ts`): Playwright does not run it as a test.
 */

export type Role = 'anon' | 'user' | 'admin';
export type Send = (ctx: APIRequestContext, m: string) => Promise<APIResponse | RawResponse>;
export type Case = {
  name: string;
  send: Send;
  allow?: number[];
  role?: Role;
  html?: boolean;
  /** The one right status, when the endpoint's contract names it. */
  status?: number;
};

/** Ids that name no record: not a number, not positive, not whole, too long, injected. */
export const BAD_IDS = [
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
];

export const MB = 1024 * 1024;
export const big = (m: string, size = MB) => `${m}${'x'.repeat(size)}`;

export function isRaw(res: APIResponse | RawResponse): res is RawResponse {
  return typeof (res as RawResponse).status === 'number';
}

export async function cookieOf(r: Roles, role: Role): Promise<string> {
  const state = await r[role].storageState();
  return state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** A fixture file with the marker appended (JPEG/PNG/MP3 decoders ignore trailing bytes). */
export const marked = (file: FilePart, m: string, name = file.name): FilePart => ({
  ...file,
  name,
  buffer: Buffer.concat([file.buffer, Buffer.from(m)]),
});

export const junk = (m: string, name: string, mimeType: string): FilePart => ({
  name,
  mimeType,
  buffer: Buffer.from(`${m} this is not what it claims to be`),
});

export function multipartBody(
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

export type ReqOptions = {
  data?: unknown;
  form?: Record<string, string>;
  multipart?: Record<string, string | FilePart>;
  headers?: Record<string, string>;
  maxRedirects?: number;
};

export function bodySize(o: ReqOptions): number {
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
export async function req(
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
export function jsonCases(
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

export type Scan = {
  counts: Record<string, number>;
  hits: string[];
  fileHits: string[];
  files: string[];
};

export function scan(marker: string): Scan {
  const out = runScript('tests/security/scan-marker.ts', { MARKER: marker });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Scan;
}

const STACK = /at .+\(.+:\d+:\d+\)|node_modules/;
/** In a page, only a stack frame's own line (a page's text may read "at 9 (Hall: 1:2:3)"). */
const PAGE_STACK = /\n\s*at \S+ \(\S+:\d+:\d+\)|node_modules\//;

export async function expectRefused(c: Case, res: APIResponse | RawResponse, label: string) {
  const status = isRaw(res) ? res.status : res.status();
  const body = isRaw(res) ? res.body : await res.text().catch(() => '');
  const type = isRaw(res)
    ? String(res.headers['content-type'] ?? '')
    : (res.headers()['content-type'] ?? '');
  const allowed = c.allow ?? [];
  expect.soft(status, `${label}: never a 5xx (${body.slice(0, 200)})`).toBeLessThan(500);
  if (allowed.includes(status)) return;
  if (c.status !== undefined) expect.soft(status, `${label}: ${c.status}`).toBe(c.status);
  expect
    .soft(status >= 400 && status < 500, `${label}: a 4xx, got ${status} (${body.slice(0, 200)})`)
    .toBe(true);
  if (status === 413 && body === 'closed early') return;
  if (c.html) {
    expect.soft(body.length, `${label}: a page with a message`).toBeGreaterThan(0);
    expect.soft(body, `${label}: no stack trace`).not.toMatch(PAGE_STACK);
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
  expect.soft(body, `${label}: no stack trace`).not.toMatch(STACK);
}

/**
 * How many hostile cases a spec file has sent, for its afterAll's log line. The afterAll
 * logs it and sets it back to 0: a worker may run a file's tests in more than one batch,
 * each ending with afterAll, so the lines of a run add up to the cases sent.
 */
export type Count = { cases: number };

export async function runGroup(
  r: Roles,
  count: Count,
  name: string,
  groups: { endpoint: string; cases: Case[] }[],
) {
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
      count.cases += 1;
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
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const again = new Set(scan(marker).files);
    parts = parts.filter((f) => again.has(f));
  }
  expect(parts, `${name}: no half-written upload`).toEqual([]);
}

// ---------------------------------------------------------------------------------------
// Page forms (the HTML actions the site's own forms post to)
// ---------------------------------------------------------------------------------------

export function formCases(
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
