import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { type APIRequestContext, expect, request, test } from '@playwright/test';

import { runScript } from '../e2e/fixtures';
import {
  baseURL,
  disposeRoles,
  expectError,
  expectFieldErrors,
  expectJson,
  files,
  type Roles,
  roles,
  SAME_ORIGIN,
  unique,
} from './helpers';

/**
 * /api/admin/uploads (tus 1.0, decision 036) and `audioUploadId` on /api/admin/tracks: the
 * admin check on every request, creation, PATCH and HEAD offsets, the MAX_AUDIO_MB cap, a
 * resume after a PATCH cut short, a finished upload saved as a track's audio, and ids that
 * must be refused (bad, unfinished, another admin's, already used). Also the 413 of a
 * multipart body declared over the cap, which must reach the client before the connection
 * is closed.
 */

const TUS = { 'Tus-Resumable': '1.0.0' };
const PATH = '/api/admin/uploads';
const MB = 1024 * 1024;

/** A WAV: header, then `seconds` of a quiet tone (16-bit mono 8 kHz: small and quick). */
function wav(seconds: number): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(seconds * rate * 2);
  for (let i = 0; i < seconds * rate; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 3000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

async function create(ctx: APIRequestContext, length: number, filename = 'set.wav') {
  return ctx.post(PATH, {
    headers: {
      ...SAME_ORIGIN,
      ...TUS,
      'Upload-Length': String(length),
      'Upload-Metadata': meta({ filename, filetype: 'audio/wav' }),
    },
  });
}

async function createId(ctx: APIRequestContext, length: number, filename = 'set.wav') {
  const response = await create(ctx, length, filename);
  expect(response.status(), await response.text()).toBe(201);
  const location = response.headers()['location'] ?? '';
  expect(location).toMatch(/^\/api\/admin\/uploads\/[0-9a-f]{32}$/);
  return location.split('/').pop()!;
}

const patch = (ctx: APIRequestContext, id: string, offset: number, bytes: Buffer) =>
  ctx.patch(`${PATH}/${id}`, {
    headers: {
      ...SAME_ORIGIN,
      ...TUS,
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    data: bytes,
  });

const offsetOf = async (ctx: APIRequestContext, id: string) => {
  const head = await ctx.head(`${PATH}/${id}`, { headers: TUS });
  expect(head.status()).toBe(200);
  return Number(head.headers()['upload-offset']);
};

/** A finished upload of `bytes` by `ctx`'s admin: its id. */
async function finishedUpload(ctx: APIRequestContext, bytes: Buffer, filename = 'set.wav') {
  const id = await createId(ctx, bytes.length, filename);
  const done = await patch(ctx, id, 0, bytes);
  expect(done.status()).toBe(204);
  return id;
}

/**
 * A PATCH whose connection breaks after `sendBytes` of the declared `bytes`: what a dropped
 * connection does to the upload in flight.
 */
function cutPatch(cookie: string, id: string, bytes: Buffer, sendBytes: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(new URL(`${PATH}/${id}`, baseURL), {
      method: 'PATCH',
      headers: {
        ...SAME_ORIGIN,
        ...TUS,
        Cookie: cookie,
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(bytes.length),
      },
    });
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      resolve();
    });
    req.write(bytes.subarray(0, sendBytes), () => {
      // Give the server the bytes, then cut the connection as a dropped network would.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
  });
}

const cookieOf = async (ctx: APIRequestContext) =>
  (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');

let r: Roles;
let otherAdmin: APIRequestContext;

test.beforeAll(async () => {
  r = await roles();
  const other = { username: `api-admin-2-${unique()}`, password: 'api-admin-2-password' };
  runScript('scripts/create-admin.ts', {
    ADMIN_USERNAME: other.username,
    ADMIN_PASSWORD: other.password,
  });
  otherAdmin = await request.newContext({ baseURL });
  const login = await otherAdmin.post('/api/login', { data: other, headers: SAME_ORIGIN });
  expect(login.status()).toBe(200);
});

test.afterAll(async () => {
  await disposeRoles(r);
  await otherAdmin?.dispose();
});

test.describe('/api/admin/uploads (tus)', () => {
  test('401 without a session, 403 for a member, JSON, on every method', async () => {
    const id = await createId(r.admin, 1000);
    for (const [ctx, status, message] of [
      [r.anon, 401, 'Authentication required'],
      [r.user, 403, 'Administrator access required'],
    ] as const) {
      await expectError(await create(ctx, 1000), status, message);
      // HEAD: the status only (an answer to HEAD has no body).
      expect((await ctx.head(`${PATH}/${id}`, { headers: TUS })).status()).toBe(status);
      await expectError(await patch(ctx, id, 0, Buffer.from('RIFF')), status, message);
      await expectError(
        await ctx.delete(`${PATH}/${id}`, { headers: { ...SAME_ORIGIN, ...TUS } }),
        status,
      );
    }
    expect(await offsetOf(r.admin, id)).toBe(0);
  });

  test('a cross-site creation is refused by the trust boundary', async () => {
    const response = await r.admin.post(PATH, {
      headers: { Origin: 'https://evil.example', ...TUS, 'Upload-Length': '10' },
    });
    await expectError(response, 403);
  });

  test('creation, PATCH and HEAD offsets; GET is 405', async () => {
    const bytes = wav(2);
    const id = await createId(r.admin, bytes.length);
    expect(await offsetOf(r.admin, id)).toBe(0);
    const first = await patch(r.admin, id, 0, bytes.subarray(0, 10_000));
    expect(first.status()).toBe(204);
    expect(first.headers()['upload-offset']).toBe('10000');
    expect(await offsetOf(r.admin, id)).toBe(10_000);
    // A PATCH at the wrong offset is a conflict; the offset stays.
    expect((await patch(r.admin, id, 0, bytes.subarray(0, 100))).status()).toBe(409);
    const rest = await patch(r.admin, id, 10_000, bytes.subarray(10_000));
    expect(rest.headers()['upload-offset']).toBe(String(bytes.length));
    await expectError(await r.admin.get(`${PATH}/${id}`), 405);
  });

  test('over MAX_AUDIO_MB is a 413; a file name that is not audio a 400', async () => {
    const tooBig = await create(r.admin, 1024 * MB + 1);
    expect(tooBig.status()).toBe(413);
    expect((await create(r.admin, 1000, 'notes.txt')).status()).toBe(400);
  });

  test('resumes after a PATCH cut short: HEAD says how far it got, the rest completes it', async () => {
    const bytes = wav(30); // 480 KB
    const id = await createId(r.admin, bytes.length);
    await cutPatch(await cookieOf(r.admin), id, bytes, 200_000);
    await expect.poll(() => offsetOf(r.admin, id)).toBeGreaterThan(0);
    const reached = await offsetOf(r.admin, id);
    expect(reached).toBeLessThan(bytes.length);
    const rest = await patch(r.admin, id, reached, bytes.subarray(reached));
    expect(rest.status()).toBe(204);
    expect(rest.headers()['upload-offset']).toBe(String(bytes.length));
  });

  test("another admin's upload is a 404 to them", async () => {
    const id = await createId(r.admin, 1000);
    expect((await otherAdmin.head(`${PATH}/${id}`, { headers: TUS })).status()).toBe(404);
    await expectError(await patch(otherAdmin, id, 0, Buffer.from('RIFF')), 404);
    expect(await offsetOf(r.admin, id)).toBe(0);
  });
});

test.describe('exact paths, over-long creations, caps (issue 38)', () => {
  test('an id under a deeper path, or with a trailing slash, is a 404 and changes nothing', async () => {
    const bytes = wav(1);
    const id = await createId(r.admin, bytes.length);
    for (const wrong of [`${PATH}/x/${id}`, `${PATH}/${id}/`]) {
      expect((await r.admin.head(wrong, { headers: TUS })).status(), wrong).toBe(404);
      await expectError(
        await r.admin.patch(wrong, {
          headers: {
            ...SAME_ORIGIN,
            ...TUS,
            'Upload-Offset': '0',
            'Content-Type': 'application/offset+octet-stream',
          },
          data: bytes,
        }),
        404,
      );
      await expectError(await r.admin.delete(wrong, { headers: { ...SAME_ORIGIN, ...TUS } }), 404);
    }
    // The upload is there, untouched, for its owner.
    expect(await offsetOf(r.admin, id)).toBe(0);
    // …and another admin cannot reach it by a deeper path either.
    expect((await otherAdmin.head(`${PATH}/x/${id}`, { headers: TUS })).status()).toBe(404);
  });

  test('a creation whose body is longer than its Upload-Length leaves nothing in .tus/', async () => {
    const filename = `overlong-${unique()}.wav`;
    const response = await r.admin.post(PATH, {
      headers: {
        ...SAME_ORIGIN,
        ...TUS,
        'Upload-Length': '100',
        'Upload-Metadata': meta({ filename, filetype: 'audio/wav' }),
        'Content-Type': 'application/offset+octet-stream',
      },
      data: wav(1),
    });
    expect(response.status()).toBe(413);
    expect(response.headers()['location']).toBeUndefined();
    const dir = path.join(process.env.E2E_DIR ?? '', 'api', 'uploads', '.tus');
    const records = fs.existsSync(dir)
      ? fs.readdirSync(dir).filter((n) => n.endsWith('.json'))
      : [];
    for (const name of records) {
      expect(fs.readFileSync(path.join(dir, name), 'utf8')).not.toContain(
        Buffer.from(filename).toString('base64'),
      );
    }
  });
});

test.describe('audioUploadId on /api/admin/tracks', () => {
  test('a finished upload becomes the track audio, and the id is used up', async () => {
    const bytes = wav(65);
    const id = await finishedUpload(r.admin, bytes);
    const title = `Resumable ${unique()}`;
    // A tracklist past the file's end (1:05, nothing typed) is refused, and the upload stays.
    const refused = await r.admin.post('/api/admin/tracks', {
      headers: SAME_ORIGIN,
      multipart: {
        title,
        type: 'Mix',
        tracklist: '0:00 A - B\n1:10 C - D',
        coverImage: files.cover(),
        audioUploadId: id,
      },
    });
    await expectFieldErrors(refused, {
      tracklist: 'Line 2: starts at 1:10, after the end of the track (1:05)',
    });
    expect(await offsetOf(r.admin, id)).toBe(bytes.length);
    const created = await r.admin.post('/api/admin/tracks', {
      headers: SAME_ORIGIN,
      multipart: { title, type: 'Mix', coverImage: files.cover(), audioUploadId: id },
    });
    const track = (await expectJson(created, 201)) as {
      id: number;
      audioFile: string;
      duration: string;
    };
    expect(track.audioFile).toMatch(/^\/uploads\/audio\/[0-9a-f]{32}\.wav$/);
    expect(track.duration).toBe('1:05'); // read from the file, as for a direct upload
    // A WAV is the track's kept original, for admins only (its stream is made in the
    // background, decision 035): byte for byte what was uploaded, and nothing for a visitor.
    const served = await r.admin.get(track.audioFile);
    expect(served.status()).toBe(200);
    expect(Buffer.compare(await served.body(), bytes)).toBe(0);
    expect((await r.anon.get(track.audioFile)).status()).toBe(404);
    // The upload is gone: neither tus nor a second track can use it.
    expect((await r.admin.head(`${PATH}/${id}`, { headers: TUS })).status()).toBe(404);
    const again = await r.admin.post('/api/admin/tracks', {
      headers: SAME_ORIGIN,
      multipart: { title: `${title} again`, coverImage: files.cover(), audioUploadId: id },
    });
    await expectFieldErrors(again, { audioUploadId: /No finished upload of yours/ });

    // PUT: a new finished upload replaces the audio.
    const replacement = await finishedUpload(r.admin, wav(3));
    const updated = await r.admin.put(`/api/admin/tracks/${track.id}`, {
      headers: SAME_ORIGIN,
      multipart: { title, audioUploadId: replacement },
    });
    const after = (await expectJson(updated, 200)) as { audioFile: string; duration: string };
    expect(after.audioFile).not.toBe(track.audioFile);
    expect(after.duration).toBe('0:03');
    expect((await r.anon.get(track.audioFile)).status()).toBe(404);
  });

  test("bad, unfinished and another admin's ids are a 400 on the field, and nothing changes", async () => {
    const before = ((await (await r.admin.get('/api/tracks')).json()) as unknown[]).length;
    const unfinished = await createId(r.admin, 5000);
    await patch(r.admin, unfinished, 0, wav(1).subarray(0, 1000));
    const foreign = await finishedUpload(otherAdmin, wav(1));
    const notAudio = await finishedUpload(r.admin, Buffer.from('plain text, not a wave file'));
    const cases: [string, RegExp][] = [
      ['not-an-id', /No finished upload of yours/],
      ['0123456789abcdef0123456789abcdef', /No finished upload of yours/],
      ['../../etc/passwd', /No finished upload of yours/],
      [unfinished, /has not finished yet/],
      [foreign, /No finished upload of yours/],
      [notAudio, /Audio must be an MP3 or WAV file/],
    ];
    for (const [id, message] of cases) {
      const response = await r.admin.post('/api/admin/tracks', {
        headers: SAME_ORIGIN,
        multipart: { title: `Refused ${unique()}`, coverImage: files.cover(), audioUploadId: id },
      });
      await expectFieldErrors(response, { audioUploadId: message });
    }
    expect(((await (await r.admin.get('/api/tracks')).json()) as unknown[]).length).toBe(before);
    // The other admin's upload is still theirs, whole.
    expect(await offsetOf(otherAdmin, foreign)).toBe(wav(1).length);
  });

  test('a multipart body declared over the cap gets its JSON 413 before the connection closes', async () => {
    const cookie = await cookieOf(r.admin);
    const boundary = 'over-the-cap';
    const declared = 1100 * MB;
    const answer = await new Promise<{ status: number; body: string; sent: number }>(
      (resolve, reject) => {
        let sent = 0;
        const req = http.request(new URL('/api/admin/tracks', baseURL), {
          method: 'POST',
          headers: {
            ...SAME_ORIGIN,
            Cookie: cookie,
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(declared),
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }));
        });
        // An error before the answer is the reset this test is about.
        req.on('error', (error) => reject(error));
        const chunk = Buffer.alloc(MB);
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="audioFile"; filename="big.wav"\r\n\r\n`,
        );
        // Keep sending, as a browser does, until the answer is in (at most 64 MB here).
        const pump = () => {
          while (sent < 64 * MB) {
            sent += chunk.length;
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
        };
        pump();
      },
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: expect.stringMatching(/Request body too large/),
    });
  });
});
