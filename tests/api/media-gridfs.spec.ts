import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { findRunningStore, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import mongoose from 'mongoose';

import { apiLogin, runScriptFor, startServer, type TestServer } from '../security/server';
import { files } from './helpers';

/**
 * MEDIA_STORAGE=gridfs on a server of its own (decision 023): uploads land in GridFS with
 * their derivatives, are served with Range/206/416 and ETag/304, replaced and deleted files
 * leave no file and no chunk behind, a refused upload stores nothing, and the start-up sweep
 * removes the chunks of a cut-short upload. The test reads the database through the server's
 * own embedded store.
 */
test.describe.configure({ mode: 'serial' });

const ADMIN = { username: 'gridfs-admin', password: 'gridfs-admin-password' };
let dir: string;
let server: TestServer;
let api: APIRequestContext;
let client: mongoose.mongo.MongoClient;
const env = { MEDIA_STORAGE: 'gridfs' };

type Track = { id: number; title: string; coverImage: string; audioFile: string };

async function connect(uri: string) {
  client = new mongoose.mongo.MongoClient(uri);
  await client.connect();
}
const bucket = (name: 'files' | 'chunks') => client.db('nightshore').collection(`media.${name}`);
const storedNames = async () =>
  (await bucket('files').find().toArray()).map((f) => f.filename as string).sort();
const chunksWithoutFile = async () => {
  const ids = new Set((await bucket('files').find().toArray()).map((f) => String(f._id)));
  return (
    await bucket('chunks')
      .find({}, { projection: { files_id: 1 } })
      .toArray()
  ).filter((c) => !ids.has(String(c.files_id))).length;
};
const key = (url: string) => url.slice('/uploads/'.length);

async function start() {
  server = await startServer(dir, env);
  const cookie = await apiLogin(server.url, ADMIN.username, ADMIN.password);
  api = await request.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { Cookie: cookie, Origin: server.url },
  });
  await connect(findRunningStore(path.join(dir, 'data', 'db'))!);
}
async function stop() {
  await api.dispose();
  await client.close();
  server.proc.kill('SIGTERM');
  await server.exited;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-gridfs-'));
  runScriptFor(dir, 'scripts/create-admin.ts', {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  await start();
});
test.afterAll(async () => {
  await stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

let track: Track;

test('an uploaded track and its cover live in GridFS, served with ranges and validators', async () => {
  const mp3 = files.mp3();
  const created = await api.post('/api/admin/tracks', {
    multipart: { title: 'GridFS track', coverImage: files.cover(), audioFile: mp3 },
  });
  expect(created.status()).toBe(201);
  track = (await created.json()) as Track;
  const names = await storedNames();
  expect(names).toContain(key(track.audioFile));
  expect(names).toContain(key(track.coverImage));
  const base = key(track.coverImage).replace(/\.jpg$/, '');
  expect(names.filter((n) => n.startsWith(`${base}-`)).length).toBeGreaterThan(0);
  // Nothing left on the local disk: it was only the staging area (the media job's local copy,
  // decision 035, goes once its peaks are made).
  await expect
    .poll(() => fs.readdirSync(path.join(dir, 'uploads', 'audio')), { timeout: 15_000 })
    .toEqual(['fallback.mp3']);
  expect(fs.readdirSync(path.join(dir, 'uploads', 'images'))).toEqual([]);

  const whole = await fetch(`${server.url}${track.audioFile}`);
  expect(whole.status).toBe(200);
  expect(Buffer.from(await whole.arrayBuffer()).equals(mp3.buffer)).toBe(true);
  const etag = whole.headers.get('etag')!;
  const ranged = await fetch(`${server.url}${track.audioFile}`, {
    headers: { Range: 'bytes=-100' },
  });
  expect(ranged.status).toBe(206);
  expect(Buffer.from(await ranged.arrayBuffer()).equals(mp3.buffer.subarray(-100))).toBe(true);
  const past = await fetch(`${server.url}${track.audioFile}`, {
    headers: { Range: `bytes=${mp3.buffer.length}-` },
  });
  expect(past.status).toBe(416);
  const again = await fetch(`${server.url}${track.audioFile}`, {
    headers: { 'If-None-Match': etag },
  });
  expect(again.status).toBe(304);

  // The page's srcset offers the derivatives, and they are served.
  const html = await (await fetch(`${server.url}/music`)).text();
  const derivative = html.match(new RegExp(`/uploads/${base}-\\d+w\\.webp`))?.[0];
  expect(derivative).toBeTruthy();
  expect((await fetch(`${server.url}${derivative}`)).status).toBe(200);
});

test('a replaced cover and a deleted track leave no file and no chunk behind', async () => {
  const oldCover = key(track.coverImage);
  const replaced = await api.put(`/api/admin/tracks/${track.id}`, {
    multipart: {
      title: track.title,
      featured: 'false',
      coverImage: files.png(),
      audioFileUrl: track.audioFile,
    },
  });
  expect(replaced.status()).toBe(200);
  const updated = (await replaced.json()) as Track;
  const oldBase = oldCover.replace(/\.jpg$/, '');
  expect((await storedNames()).filter((n) => n.startsWith(oldBase))).toEqual([]);
  expect((await fetch(`${server.url}${track.coverImage}`)).status).toBe(404);

  expect((await api.delete(`/api/admin/tracks/${updated.id}`)).status()).toBe(204);
  expect((await fetch(`${server.url}${updated.audioFile}`)).status).toBe(404);
  expect(await storedNames()).toEqual([]);
  expect(await bucket('chunks').countDocuments()).toBe(0);
});

test('a refused upload stores nothing', async () => {
  const refused = await api.post('/api/admin/tracks', {
    multipart: {
      title: 'Refused',
      coverImage: {
        name: 'cover.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.from('not an image at all'),
      },
      audioFile: files.mp3(),
    },
  });
  expect(refused.status()).toBe(400);
  expect(await storedNames()).toEqual([]);
  expect(await bucket('chunks').countDocuments()).toBe(0);
  expect(fs.readdirSync(path.join(dir, 'uploads', 'audio'))).toEqual(['fallback.mp3']);
});

test('the start-up sweep removes the chunks of a cut-short upload and sets unreferenced files aside', async () => {
  await stop();
  // What a SIGKILL in the middle of a GridFS write leaves: chunks, no file document (two hours
  // old); and a file no record points to (a kill between storing it and saving its record).
  const store = await startEmbeddedMongo({ dataDir: path.join(dir, 'data', 'db') });
  await connect(store.uri);
  const twoHoursAgo = Math.floor((Date.now() - 2 * 60 * 60 * 1000) / 1000);
  const cutShort = mongoose.mongo.ObjectId.createFromTime(twoHoursAgo);
  await bucket('chunks').insertMany([
    { files_id: cutShort, n: 0, data: new mongoose.mongo.Binary(Buffer.alloc(1000)) },
    { files_id: cutShort, n: 1, data: new mongoose.mongo.Binary(Buffer.alloc(1000)) },
  ]);
  const gridfs = new mongoose.mongo.GridFSBucket(client.db('nightshore'), { bucketName: 'media' });
  await new Promise<void>((resolve, reject) =>
    gridfs
      .openUploadStream('audio/unreferenced.mp3')
      .on('finish', resolve)
      .on('error', reject)
      .end(files.mp3().buffer),
  );
  expect(await chunksWithoutFile()).toBe(2);
  await client.close();
  await store.stop();

  await start();
  expect(await chunksWithoutFile()).toBe(0);
  expect(await storedNames()).toEqual(['.orphans/audio/unreferenced.mp3']);
  expect((await fetch(`${server.url}/uploads/audio/unreferenced.mp3`)).status).toBe(404);
});
