import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { type APIRequestContext, expect, request, test } from '@playwright/test';
import mongoose from 'mongoose';

import { apiLogin, type StandaloneStore, startServer, type TestServer } from '../security/server';
import { files, startTwoInstances, stopInstances } from './helpers';

/**
 * Two app instances on one database (decision 022): a standalone embedded store (`npm run db`)
 * and two production servers, A and B, connected to it with MONGODB_URI, with media in GridFS
 * (MEDIA_STORAGE=gridfs) and each its own UPLOADS_DIR (nothing shared but the database). Both
 * start at the same moment on the empty database, with the demo seed on.
 */
test.describe.configure({ mode: 'serial' });

const ADMIN = { username: 'multi-admin', password: 'multi-instance-password' };
const LOGIN_LIMIT = 4;

let dir: string;
let store: StandaloneStore | undefined;
let uri: string;
let a: TestServer;
let b: TestServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const started = await startTwoInstances({
    prefix: 'night-shore-multi-',
    env: {
      RATE_LIMIT_LOGIN_PER_USER: String(LOGIN_LIMIT),
      // The start-up lines ("seeded demo content") are info.
      LOG_LEVEL: 'info',
    },
    admin: ADMIN,
  });
  ({ dir, store, a, b } = started);
  uri = started.store.uri;
});

test.afterAll(async () => {
  await stopInstances([a, b], store, dir);
});

const tracksOn = async (server: TestServer) =>
  (await (await fetch(`${server.url}/api/tracks`)).json()) as {
    id: number;
    title: string;
    audioFile: string;
  }[];

test('two instances started together on an empty database leave one copy of the demo content, its media playable from both', async () => {
  // The instance that won the claim says so once it has finished seeding.
  await expect
    .poll(() => `${a.stdout()}${b.stdout()}`, { timeout: 60_000 })
    .toContain('seeded demo content');
  const [onA, onB] = [await tracksOn(a), await tracksOn(b)];
  expect(onA.length).toBeGreaterThanOrEqual(6);
  expect(new Set(onA.map((t) => t.title)).size).toBe(onA.length);
  expect(onB).toEqual(onA);
  for (const track of onA) {
    const [fromA, fromB] = await Promise.all(
      [a, b].map((s) => fetch(`${s.url}${track.audioFile}`, { headers: { Range: 'bytes=0-99' } })),
    );
    expect([fromA!.status, fromB!.status], track.audioFile).toEqual([206, 206]);
    expect(Buffer.from(await fromA!.arrayBuffer())).toEqual(
      Buffer.from(await fromB!.arrayBuffer()),
    );
  }
  // One of them seeded; the other found the claim taken.
  expect(`${a.stdout()}${b.stdout()}`.match(/seeded demo content/g) ?? []).toHaveLength(1);
});

test('a session made on A works on B, and logging out on B ends it on A', async () => {
  const cookie = await apiLogin(a.url, ADMIN.username, ADMIN.password);
  const onB = await fetch(`${b.url}/api/user`, { headers: { Cookie: cookie } });
  expect(await onB.json()).toMatchObject({ username: ADMIN.username, isAdmin: true });
  const logout = await fetch(`${b.url}/api/logout`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: b.url },
  });
  expect(logout.status).toBe(200);
  const onA = await fetch(`${a.url}/api/user`, { headers: { Cookie: cookie } });
  expect(onA.status).toBe(401);
});

test("an admin's edit through A shows on B's pages within 1 s", async () => {
  const cookie = await apiLogin(a.url, ADMIN.username, ADMIN.password);
  const title = `Two-instance night ${Date.now()}`;
  // B renders /shows once before the edit (a warm page, caches and all).
  expect(await (await fetch(`${b.url}/shows`)).text()).not.toContain(title);
  const created = await fetch(`${a.url}/api/admin/shows`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: a.url },
    body: JSON.stringify({
      title,
      venue: 'The Stone Pony',
      location: 'Asbury Park, NJ',
      date: '2099-08-01',
      time: '9:00 PM',
    }),
  });
  expect(created.status).toBe(201);
  // B may serve its remembered page until it sees the shared data version move (decision 039:
  // within 1 s); polled, not slept.
  const started = performance.now();
  await expect
    .poll(async () => (await (await fetch(`${b.url}/shows`)).text()).includes(title), {
      timeout: 3_000,
      intervals: [20],
    })
    .toBe(true);
  expect(performance.now() - started).toBeLessThan(1_000);
});

test('rate limits count the attempts on A and B together', async () => {
  const attempt = (server: TestServer) =>
    fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url },
      body: JSON.stringify({ username: 'nobody-multi', password: 'wrong-password' }),
    }).then((r) => r.status);
  const statuses: number[] = [];
  for (let i = 0; i < LOGIN_LIMIT + 1; i++) statuses.push(await attempt(i % 2 === 0 ? a : b));
  // Counted per instance, each would still allow attempts: together the limit is reached.
  expect(statuses.slice(0, LOGIN_LIMIT)).toEqual(Array(LOGIN_LIMIT).fill(401));
  expect(statuses[LOGIN_LIMIT]).toBe(429);
});

test('a track uploaded through A plays from B with a Range request, byte for byte', async () => {
  const cookie = await apiLogin(a.url, ADMIN.username, ADMIN.password);
  const api: APIRequestContext = await request.newContext({ baseURL: a.url });
  try {
    const mp3 = files.mp3();
    const response = await api.post('/api/admin/tracks', {
      headers: { Cookie: cookie, Origin: a.url },
      multipart: { title: 'Uploaded on A', coverImage: files.cover(), audioFile: mp3 },
    });
    expect(response.status()).toBe(201);
    const track = (await response.json()) as { audioFile: string };
    const ranged = await fetch(`${b.url}${track.audioFile}`, {
      headers: { Range: 'bytes=100-999' },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-999/${mp3.buffer.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(mp3.buffer.subarray(100, 1000))).toBe(
      true,
    );
    expect((await tracksOn(b)).map((t) => t.title)).toContain('Uploaded on A');
    // Nothing of it on either disk: it lives in the database (the media job's local copy,
    // decision 035, goes once its peaks are made).
    for (const uploads of ['uploads-a', 'uploads-b']) {
      await expect
        .poll(() => fs.readdirSync(path.join(dir, uploads, 'audio')), { timeout: 15_000 })
        .toEqual(['fallback.mp3']);
    }
  } finally {
    await api.dispose();
  }
});

test('A killed in the middle of an upload: B never shows the item, and no chunk is left without its file', async () => {
  test.setTimeout(120_000);
  const cookie = await apiLogin(a.url, ADMIN.username, ADMIN.password);
  const before = await tracksOn(b);
  const boundary = `----night-shore-${Date.now()}`;
  const part = (name: string, file?: { filename: string; type: string }) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
        (file ? `; filename="${file.filename}"\r\nContent-Type: ${file.type}` : '') +
        '\r\n\r\n',
    );
  const audio = Buffer.concat([files.mp3().buffer, Buffer.alloc(8 * 1024 * 1024)]);
  const head = Buffer.concat([
    part('title'),
    Buffer.from('Half an upload\r\n'),
    part('coverImage', { filename: 'cover.jpg', type: 'image/jpeg' }),
    files.cover().buffer,
    Buffer.from('\r\n'),
    part('audioFile', { filename: 'long.mp3', type: 'audio/mpeg' }),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL('/api/admin/tracks', a.url);
  const req = http.request(url, {
    method: 'POST',
    headers: {
      Cookie: cookie,
      Origin: a.url,
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': head.length + audio.length + tail.length,
    },
  });
  req.on('error', () => undefined); // the server dies under it
  req.write(head);
  req.write(audio.subarray(0, audio.length / 2));
  // Half the audio is on its way: A dies.
  await new Promise((resolve) => setTimeout(resolve, 500));
  a.proc.kill('SIGKILL');
  await a.exited;
  req.destroy();

  expect(await tracksOn(b)).toEqual(before);
  // A comes back (its start-up sweep runs) and agrees.
  a = await startServer(dir, {
    MONGODB_URI: uri,
    MEDIA_STORAGE: 'gridfs',
    SEED: 'true',
    RATE_LIMIT_LOGIN_PER_USER: String(LOGIN_LIMIT),
    UPLOADS_DIR: path.join(dir, 'uploads-a'),
  });
  expect(await tracksOn(a)).toEqual(before);
  const client = new mongoose.mongo.MongoClient(uri);
  await client.connect();
  try {
    const db = client.db('nightshore');
    const ids = new Set(
      (await db.collection('media.files').find().toArray()).map((f) => String(f._id)),
    );
    const chunks = await db
      .collection('media.chunks')
      .find({}, { projection: { files_id: 1 } })
      .toArray();
    expect(chunks.filter((c) => !ids.has(String(c.files_id)))).toEqual([]);
    // Every stored file belongs to a track (or is a derivative of a cover).
    const referenced = before.flatMap((t) => [t.audioFile]).map((u) => u.slice('/uploads/'.length));
    const audioFiles = (
      await db
        .collection('media.files')
        .find({ filename: /^audio\// })
        .toArray()
    ).map((f) => f.filename as string);
    expect(audioFiles.filter((f) => !referenced.includes(f))).toEqual([]);
  } finally {
    await client.close();
  }
});
