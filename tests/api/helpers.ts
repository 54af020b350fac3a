import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type APIRequestContext, type APIResponse, expect, request, test } from '@playwright/test';

import { siteToday } from '../../app/utils/time';
import { runScript } from '../e2e/fixtures';
import {
  runScriptFor,
  type StandaloneStore,
  startServer,
  startStandaloneStore,
  type TestServer,
} from '../security/server';

/**
 * Shared pieces of the /api tests (Playwright project `api`): the server's address, one
 * request context per role (cookies kept per context), fixtures for multipart uploads and
 * shape checks for the entities' JSON (app/types/entities.ts).
 */

export const baseURL = `http://localhost:${process.env.E2E_API_PORT}`;
/** Mutations send the site's own Origin, as a browser on the site would. */
export const SAME_ORIGIN = { Origin: baseURL };
export const CROSS_ORIGIN = { Origin: 'https://evil.example' };

export const API_ADMIN = { username: 'api-admin', password: 'api-admin-password-1' };
export const API_USER = { username: 'api-user', password: 'api-user-password-1' };

/**
 * The site's day (New York) `offset` days from now, YYYY-MM-DD: early-access dates for tests.
 * Tests use two days either side, so a run across midnight cannot turn "future" into "today".
 */
export const siteDay = (offset: number) => siteToday(new Date(Date.now() + offset * 86_400_000));

/** A short unique suffix for names, emails and slugs created by a test. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

const stateFile = (role: string) => path.join(process.env.E2E_DIR ?? '', `api-${role}-state.json`);

/**
 * A request context logged in as `role`. The session is created once per test run and
 * its cookies shared through a storage-state file, so the suite logs in only a few times.
 */
async function loggedIn(role: 'admin' | 'user'): Promise<APIRequestContext> {
  const file = stateFile(role);
  if (fs.existsSync(file)) return request.newContext({ baseURL, storageState: file });
  const credentials = role === 'admin' ? API_ADMIN : API_USER;
  if (role === 'admin') {
    const env = { ADMIN_USERNAME: API_ADMIN.username, ADMIN_PASSWORD: API_ADMIN.password };
    try {
      runScript('scripts/create-admin.ts', env);
    } catch {
      // Another worker created the same account at the same moment: now it exists.
      runScript('scripts/create-admin.ts', env);
    }
  }
  const context = await request.newContext({ baseURL });
  if (role === 'user') {
    const registered = await context.post('/api/register', {
      data: credentials,
      headers: SAME_ORIGIN,
    });
    expect([201, 409]).toContain(registered.status());
  }
  const login = await context.post('/api/login', { data: credentials, headers: SAME_ORIGIN });
  expect(login.status(), await login.text()).toBe(200);
  // Written whole, then renamed: a parallel worker never reads half a file.
  const temp = `${file}.${process.pid}.tmp`;
  await context.storageState({ path: temp });
  fs.renameSync(temp, file);
  return context;
}

export type Roles = { anon: APIRequestContext; user: APIRequestContext; admin: APIRequestContext };

export async function roles(): Promise<Roles> {
  return {
    anon: await request.newContext({ baseURL }),
    user: await loggedIn('user'),
    admin: await loggedIn('admin'),
  };
}

export async function disposeRoles(r: Roles | undefined): Promise<void> {
  if (!r) return;
  await Promise.all([r.anon.dispose(), r.user.dispose(), r.admin.dispose()]);
}

/**
 * The three roles for every test of the file (or `describe`) that calls this at its top:
 * signed in before the first test, disposed after the last. The object is filled in by
 * `beforeAll`, so read its fields inside tests and hooks only.
 */
export function useRoles(): Roles {
  const r = {} as Roles;
  test.beforeAll(async () => {
    Object.assign(r, await roles());
  });
  test.afterAll(async () => {
    if (r.admin) await disposeRoles(r);
  });
  return r;
}

/** The body of a JSON answer, after checking its status and content type. */
export async function expectJson(response: APIResponse, status: number): Promise<unknown> {
  const text = await response.text();
  expect(response.status(), text).toBe(status);
  expect(response.headers()['content-type']).toMatch(/^application\/json/);
  return JSON.parse(text) as unknown;
}

export type ErrorBody = { error: string; fields?: Record<string, string[]> };

/** An error answer `{ error, fields? }` with this status. */
export async function expectError(
  response: APIResponse,
  status: number,
  message?: string | RegExp,
): Promise<ErrorBody> {
  const body = (await expectJson(response, status)) as ErrorBody;
  expect(typeof body.error).toBe('string');
  expect(Object.keys(body).every((k) => k === 'error' || k === 'fields')).toBe(true);
  if (typeof message === 'string') expect(body.error).toBe(message);
  else if (message) expect(body.error).toMatch(message);
  return body;
}

/** A validation error naming these fields (and their messages when given). */
export async function expectFieldErrors(
  response: APIResponse,
  expected: Record<string, string | RegExp | null>,
  status = 400,
): Promise<ErrorBody> {
  const body = await expectError(response, status);
  for (const [field, message] of Object.entries(expected)) {
    const messages = body.fields?.[field];
    expect(messages, `fields.${field} in ${JSON.stringify(body)}`).toBeTruthy();
    if (typeof message === 'string') expect(messages).toContain(message);
    else if (message) expect(messages!.some((m) => message.test(m))).toBe(true);
  }
  return body;
}

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

export const ENTITY_KEYS = {
  track: [
    'id',
    'title',
    'artist',
    'album',
    'type',
    'duration',
    'durationSeconds',
    'description',
    'tracklist',
    'coverImage',
    'audioFile',
    'audioStatus',
    'featured',
    'visibility',
    'publicAt',
    'locked',
    'createdAt',
  ],
  gallery: ['id', 'title', 'description', 'imageUrl', 'createdAt'],
  blog: [
    'id',
    'title',
    'slug',
    'content',
    'excerpt',
    'imageUrl',
    'category',
    'visibility',
    'publicAt',
    'locked',
    'createdAt',
  ],
  subscriber: ['id', 'name', 'email', 'status', 'createdAt'],
  message: ['id', 'name', 'email', 'subject', 'message', 'createdAt'],
  show: [
    'id',
    'title',
    'venue',
    'location',
    'date',
    'time',
    'ticketUrl',
    'description',
    'guestListCapacity',
    'guestListCount',
    'createdAt',
  ],
  user: ['id', 'username', 'isAdmin'],
} as const;

/** What a locked (members-only, asked for without a session) track or post lacks. */
const LOCKED_WITHOUT = { track: 'audioFile', blog: 'content' } as const;

/**
 * Exactly the entity's fields: numeric id, ISO createdAt, no _id/__v/password. A track or post
 * with `locked: true` has every field but its audio file or body.
 */
export function expectEntity(
  value: unknown,
  kind: keyof typeof ENTITY_KEYS,
): Record<string, unknown> {
  expect(typeof value).toBe('object');
  const record = value as Record<string, unknown>;
  const without =
    (kind === 'track' || kind === 'blog') && record.locked === true ? LOCKED_WITHOUT[kind] : null;
  const keys = ENTITY_KEYS[kind].filter((k) => k !== without);
  expect(Object.keys(record).sort()).toEqual([...keys].sort());
  expect(typeof record.id).toBe('number');
  if ('createdAt' in record) expect(record.createdAt).toMatch(ISO_DATE);
  return record;
}

export function expectList(
  value: unknown,
  kind: keyof typeof ENTITY_KEYS,
): Record<string, unknown>[] {
  expect(Array.isArray(value)).toBe(true);
  return (value as unknown[]).map((v) => expectEntity(v, kind));
}

// --- Upload fixtures -----------------------------------------------------------------

const fixture = (name: string) => fs.readFileSync(path.join('tests', 'fixtures', name));

export type FilePart = { name: string; mimeType: string; buffer: Buffer };

export const files = {
  cover: (): FilePart => ({
    name: 'cover.jpg',
    mimeType: 'image/jpeg',
    buffer: fixture('cover.jpg'),
  }),
  png: (): FilePart => ({ name: 'photo.png', mimeType: 'image/png', buffer: fixture('photo.png') }),
  mp3: (): FilePart => ({
    name: 'short.mp3',
    mimeType: 'audio/mpeg',
    buffer: fixture('short.mp3'),
  }),
  wav: (): FilePart => ({ name: 'tone.wav', mimeType: 'audio/wav', buffer: fixture('tone.wav') }),
  notAnImage: (): FilePart => ({
    name: 'not-an-image.jpg',
    mimeType: 'image/jpeg',
    buffer: fixture('not-an-image.jpg'),
  }),
};

export type Multipart = Record<string, string | FilePart>;

export type TwoInstances = {
  /** The temporary folder of both: their uploads (uploads-a, uploads-b), the store's data. */
  dir: string;
  store: StandaloneStore;
  a: TestServer;
  b: TestServer;
};

/**
 * Two production servers, A and B, on one standalone embedded store (`npm run db` with
 * `storeArgs`, by default a data dir under the temporary folder), with media in GridFS and
 * each its own UPLOADS_DIR (nothing shared but the database), the demo seed on: both start
 * at the same moment on the empty database. `admin` is created with scripts/create-admin.ts.
 * End them with `stopInstances`.
 */
export async function startTwoInstances(options: {
  prefix: string;
  admin: { username: string; password: string };
  env?: Record<string, string>;
  storeArgs?: string[];
}): Promise<TwoInstances> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), options.prefix));
  const store = await startStandaloneStore(
    options.storeArgs ?? ['--data-dir', path.join(dir, 'db')],
  );
  const env = { MONGODB_URI: store.uri, MEDIA_STORAGE: 'gridfs', SEED: 'true', ...options.env };
  const [a, b] = await Promise.all([
    startServer(dir, { ...env, UPLOADS_DIR: path.join(dir, 'uploads-a') }),
    startServer(dir, { ...env, UPLOADS_DIR: path.join(dir, 'uploads-b') }),
  ]);
  runScriptFor(dir, 'scripts/create-admin.ts', {
    MONGODB_URI: store.uri,
    ADMIN_USERNAME: options.admin.username,
    ADMIN_PASSWORD: options.admin.password,
  });
  return { dir, store, a, b };
}

/** Stop these servers (SIGTERM, waiting for each), then the store, and remove the folder. */
export async function stopInstances(
  servers: (TestServer | undefined)[],
  store: StandaloneStore | undefined,
  dir: string | undefined,
): Promise<void> {
  for (const server of servers) {
    if (!server) continue;
    server.proc.kill('SIGTERM');
    await server.exited;
  }
  await store?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
