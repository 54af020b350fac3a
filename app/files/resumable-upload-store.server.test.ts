import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as Resumable from './resumable-upload-store.server';

/**
 * The tus endpoint's store, its owner bookkeeping, the id checks and the 24-hour sweep, on a
 * real tus server (node:http, no mocks) with a 2 MB audio cap. The admin check in front of it
 * is tested through HTTP in tests/api/resumable-uploads.spec.ts.
 */

let root: string;
let mod: typeof Resumable;
let server: http.Server;
let base: string;
/** The admin the guard "let through" for every request of this server. */
let uploader = 7;

const MB = 1024 * 1024;
const HOUR = 60 * 60 * 1000;
const TUS = { 'Tus-Resumable': '1.0.0' };

/** A WAV header then `size - 44` bytes of silence. */
function wav(size: number): Buffer {
  const b = Buffer.alloc(size);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(size - 8, 4);
  b.write('WAVEfmt ', 8, 'ascii');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(2, 22);
  b.writeUInt32LE(44_100, 24);
  b.writeUInt32LE(44_100 * 4, 28);
  b.writeUInt16LE(4, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(size - 44, 40);
  return b;
}

const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

async function create(length: number, filename = 'set.wav', extra: Record<string, string> = {}) {
  const response = await fetch(`${base}${mod.RESUMABLE_UPLOADS_PATH}`, {
    method: 'POST',
    headers: {
      ...TUS,
      'Upload-Length': String(length),
      'Upload-Metadata': meta({ filename, ...extra }),
    },
  });
  return response;
}

async function createId(length: number, filename = 'set.wav'): Promise<string> {
  const response = await create(length, filename);
  expect(response.status).toBe(201);
  return response.headers.get('Location')!.split('/').pop()!;
}

function patch(id: string, offset: number, bytes: Buffer) {
  return fetch(`${base}${mod.RESUMABLE_UPLOADS_PATH}/${id}`, {
    method: 'PATCH',
    headers: {
      ...TUS,
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(bytes),
  });
}

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ns-resumable-test-'));
  process.env.UPLOADS_DIR = root;
  process.env.MAX_AUDIO_MB = '2';
  mod = await import('./resumable-upload-store.server');
  const tus = mod.createResumableUploadServer(() => uploader);
  server = http.createServer((req, res) => void tus.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(root, { recursive: true, force: true });
});

describe('the tus store', () => {
  it('keeps partial files under UPLOADS_DIR/.tus and records the owner from the guard, not the client', async () => {
    uploader = 7;
    const response = await create(1000, 'set.wav', { owner: '99' });
    expect(response.status).toBe(201);
    const id = response.headers.get('Location')!.split('/').pop()!;
    expect(response.headers.get('Location')).toBe(`/api/admin/uploads/${id}`);
    expect(await fs.readdir(path.join(root, '.tus'))).toEqual(
      expect.arrayContaining([id, `${id}.json`]),
    );
    const upload = await mod.getResumableUpload(id);
    expect(upload).toMatchObject({ id, owner: 7, filename: 'set.wav', size: 1000, offset: 0 });
  });

  it('refuses an upload over MAX_AUDIO_MB with 413, and a file name that is not audio with 400', async () => {
    expect((await create(2 * MB + 1)).status).toBe(413);
    expect((await create(1000, 'notes.txt')).status).toBe(400);
  });

  it('resumes: HEAD gives the offset reached, the next PATCH continues from it', async () => {
    const data = wav(64 * 1024);
    const id = await createId(data.length);
    expect((await patch(id, 0, data.subarray(0, 20_000))).status).toBe(204);
    const head = await fetch(`${base}${mod.RESUMABLE_UPLOADS_PATH}/${id}`, {
      method: 'HEAD',
      headers: TUS,
    });
    expect(head.headers.get('Upload-Offset')).toBe('20000');
    expect((await patch(id, 0, data.subarray(0, 10))).status).toBe(409); // wrong offset
    const done = await patch(id, 20_000, data.subarray(20_000));
    expect(done.headers.get('Upload-Offset')).toBe(String(data.length));
    expect(await fs.readFile(path.join(root, '.tus', id))).toEqual(data);
  });
});

describe('exact paths, failed creations and per-admin caps (issue 38)', () => {
  const tusDir = () => path.join(root, '.tus');

  it('names an upload only by exactly PATH/<id>', () => {
    const id = 'a'.repeat(32);
    const P = mod.RESUMABLE_UPLOADS_PATH;
    expect(mod.resumableUploadPath(P)).toBe('endpoint');
    expect(mod.resumableUploadPath(`${P}/${id}`)).toEqual({ id });
    for (const other of [`${P}/`, `${P}/${id}/`, `${P}/x/${id}`, `${P}/%61${id.slice(1)}`, `${P}x`])
      expect(mod.resumableUploadPath(other), other).toBeNull();
  });

  it('tus answers 404 for an id under a deeper path and changes nothing', async () => {
    uploader = 7;
    const data = wav(4096);
    const id = await createId(data.length);
    const deeper = `${base}${mod.RESUMABLE_UPLOADS_PATH}/x/${id}`;
    const patched = await fetch(deeper, {
      method: 'PATCH',
      headers: { ...TUS, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(data),
    });
    expect(patched.status).toBe(404);
    expect((await fetch(deeper, { method: 'DELETE', headers: TUS })).status).toBe(404);
    expect(await mod.getResumableUpload(id)).toMatchObject({ offset: 0 });
  });

  it('a creation whose body is longer than its Upload-Length leaves nothing behind', async () => {
    uploader = 8;
    const before = (await fs.readdir(tusDir())).sort();
    const response = await fetch(`${base}${mod.RESUMABLE_UPLOADS_PATH}`, {
      method: 'POST',
      headers: {
        ...TUS,
        'Upload-Length': '100',
        'Upload-Metadata': meta({ filename: 'set.wav' }),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(wav(4096)),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('Location')).toBeNull();
    expect((await fs.readdir(tusDir())).sort()).toEqual(before);
  });

  it('caps the unfinished uploads of each admin, by count and by bytes, with a 429', async () => {
    const caps = { count: 2, bytes: 10_000 };
    const capped = mod.createResumableUploadServer(() => uploader, { caps });
    const local = http.createServer((req, res) => void capped.handle(req, res));
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    const start = (length: number) =>
      fetch(`${at}${mod.RESUMABLE_UPLOADS_PATH}`, {
        method: 'POST',
        headers: {
          ...TUS,
          'Upload-Length': String(length),
          'Upload-Metadata': meta({ filename: 'set.wav' }),
        },
      });
    try {
      uploader = 21;
      expect((await start(4000)).status).toBe(201);
      const tooMuch = await start(7000);
      expect(tooMuch.status).toBe(429);
      expect(await tooMuch.text()).toContain(mod.capMessage(caps, 'bytes'));
      expect((await start(4000)).status).toBe(201);
      const third = await start(100);
      expect(third.status).toBe(429);
      expect(await third.text()).toContain(mod.capMessage(caps, 'count'));
      // Another admin has caps of their own.
      uploader = 22;
      expect((await start(4000)).status).toBe(201);
    } finally {
      await new Promise((resolve) => local.close(resolve));
    }
  });
});

describe('checking and claiming an upload id', () => {
  it('accepts only a finished audio upload of the same admin, then moves it into audio/ once', async () => {
    uploader = 7;
    const data = wav(50_000);
    const id = await createId(data.length);
    const { unknown, unfinished } = mod.RESUMABLE_MESSAGES;

    expect(await mod.checkResumableUpload('not-an-id', 7)).toEqual({ ok: false, message: unknown });
    expect(await mod.checkResumableUpload('0'.repeat(32), 7)).toEqual({
      ok: false,
      message: unknown,
    });
    expect(await mod.checkResumableUpload(id, 7)).toEqual({ ok: false, message: unfinished });

    await patch(id, 0, data);
    // Another admin's finished upload is as unknown to them as a made-up id.
    expect(await mod.checkResumableUpload(id, 8)).toEqual({ ok: false, message: unknown });

    const checked = await mod.checkResumableUpload(id, 7);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const claimed = await mod.claimResumableUpload(checked.upload);
    expect(claimed.ok).toBe(true);
    if (!claimed.ok) return;
    expect(claimed.file.url).toMatch(/^\/uploads\/audio\/[0-9a-f]{32}\.wav$/);
    expect(claimed.file).toMatchObject({
      size: data.length,
      mime: 'audio/wav',
      originalName: 'set.wav',
    });
    expect(await fs.readFile(claimed.file.path)).toEqual(data);
    expect(await fs.readdir(path.join(root, '.tus'))).not.toContain(`${id}.json`);
    // Used once: the same id names nothing any more.
    expect(await mod.checkResumableUpload(id, 7)).toEqual({ ok: false, message: unknown });
    expect((await mod.claimResumableUpload(checked.upload)).ok).toBe(false);
  });

  it('holds a finished upload to the content checks of a form upload', async () => {
    uploader = 7;
    const text = Buffer.from('this is not audio at all, only text pretending to be a wav');
    const id = await createId(text.length, 'fake.wav');
    await patch(id, 0, text);
    expect(await mod.checkResumableUpload(id, 7)).toEqual({
      ok: false,
      message: 'Audio must be an MP3 or WAV file',
    });
    // A WAV sent under an .mp3 name: the name must agree with the content, as in a form.
    const data = wav(2000);
    const misnamed = await createId(data.length, 'set.mp3');
    await patch(misnamed, 0, data);
    expect((await mod.checkResumableUpload(misnamed, 7)).ok).toBe(false);
  });
});

describe('the sweep', () => {
  it('removes uploads without activity for 24 hours, partial or finished, and keeps the rest', async () => {
    const dir = path.join(root, '.tus');
    const partial = await createId(10_000);
    await patch(partial, 0, wav(10_000).subarray(0, 4000));
    const finished = await createId(3000);
    await patch(finished, 0, wav(3000));
    const fresh = await createId(5000);
    await fs.writeFile(path.join(dir, 'stray-leftover'), 'x');

    const now = Date.now();
    // Nothing is 24 hours old yet.
    expect(await mod.sweepResumableUploads({ now: now + 23 * HOUR })).toEqual([]);

    // A fake clock: the first three have been idle for 25 hours, `fresh` just received bytes.
    const old = new Date(now - 25 * HOUR);
    for (const name of [
      partial,
      `${partial}.json`,
      finished,
      `${finished}.json`,
      'stray-leftover',
    ]) {
      await fs.utimes(path.join(dir, name), old, old);
    }
    const removed = await mod.sweepResumableUploads({ now });
    expect(removed.sort()).toEqual([finished, partial, 'stray-leftover'].sort());
    const left = await fs.readdir(dir);
    expect(left).toEqual(expect.arrayContaining([fresh, `${fresh}.json`]));
    for (const gone of [
      partial,
      finished,
      `${partial}.json`,
      `${finished}.json`,
      'stray-leftover',
    ]) {
      expect(left).not.toContain(gone);
    }
    // An explicit age: everything is older than zero milliseconds.
    expect(await mod.sweepResumableUploads({ now: now + 1000, maxAgeMs: 0 })).toContain(fresh);
  });
});
