import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { setupTestDatabase } from '../../tests/helpers/test-db';

// A store of its own (audio files are checked against their tracks), and env.server pointed at
// its scratch folders before the middleware is imported.
const { uploadsDir } = setupTestDatabase();
const dirs = { uploads: uploadsDir, base: path.dirname(uploadsDir) };

const { uploadsMiddleware } = await import('./serve-uploads.server');
const { MEDIA_ACCESS } = await import('~/services/media-access.server');

// The middleware as the site mounts it (entry.server.tsx), on a server of its own; a path it
// passes on is a 404 here, as the site's splat route answers it.
const serveUploads = uploadsMiddleware(MEDIA_ACCESS);
const server = http.createServer((req, res) =>
  serveUploads(req, res, () => {
    res.statusCode = 404;
    res.end('Not Found');
  }),
);
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const AUDIO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

beforeAll(() => {
  fs.mkdirSync(path.join(dirs.uploads, 'audio'), { recursive: true });
  fs.mkdirSync(path.join(dirs.uploads, 'images'), { recursive: true });
  fs.writeFileSync(path.join(dirs.uploads, 'audio', 'song.mp3'), AUDIO);
  fs.writeFileSync(path.join(dirs.uploads, 'audio', 'take.wav'), Buffer.from('RIFF'));
  fs.writeFileSync(path.join(dirs.uploads, 'images', 'a b.png'), Buffer.from('png'));
  fs.writeFileSync(path.join(dirs.uploads, 'images', 'logo.svg'), '<svg/>');
  fs.writeFileSync(path.join(dirs.uploads, 'images', 'notes.txt'), 'text');
  fs.writeFileSync(path.join(dirs.uploads, '.hidden'), 'secret');
  fs.writeFileSync(path.join(dirs.base, '.env'), 'SECRET=1');
  fs.symlinkSync(path.join(dirs.base, '.env'), path.join(dirs.uploads, 'audio', 'escape.mp3'));
});

const call = (url: string, init: RequestInit = {}) => fetch(`${base}${url}`, init);

const body = async (r: Response) => Buffer.from(await r.arrayBuffer());

describe('/uploads/*', () => {
  it('serves a whole file with range support and caching headers', async () => {
    const r = await call('/uploads/audio/song.mp3');
    expect(r.status).toBe(200);
    expect(r.headers.get('Accept-Ranges')).toBe('bytes');
    expect(r.headers.get('Content-Type')).toBe('audio/mpeg');
    expect(r.headers.get('Content-Length')).toBe('1000');
    expect(r.headers.get('X-Content-Type-Options')).toBe('nosniff');
    // Audio can turn members-only: shared caches keep it briefly, browsers revalidate.
    expect(r.headers.get('Cache-Control')).toBe(
      'public, max-age=0, s-maxage=30, stale-while-revalidate=60',
    );
    expect(r.headers.get('ETag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(r.headers.get('Last-Modified')).toMatch(/GMT$/);
    expect((await body(r)).equals(AUDIO)).toBe(true);
  });

  it('bytes=0-99 is a 206 with exactly 100 bytes', async () => {
    const r = await call('/uploads/audio/song.mp3', { headers: { Range: 'bytes=0-99' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('Content-Range')).toBe('bytes 0-99/1000');
    expect(r.headers.get('Content-Length')).toBe('100');
    const b = await body(r);
    expect(b.length).toBe(100);
    expect(b.equals(AUDIO.subarray(0, 100))).toBe(true);
  });

  it('serves an open-ended range', async () => {
    const r = await call('/uploads/audio/song.mp3', { headers: { Range: 'bytes=900-' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('Content-Range')).toBe('bytes 900-999/1000');
    expect((await body(r)).equals(AUDIO.subarray(900))).toBe(true);
  });

  it('serves a suffix range', async () => {
    const r = await call('/uploads/audio/song.mp3', { headers: { Range: 'bytes=-10' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('Content-Range')).toBe('bytes 990-999/1000');
    expect((await body(r)).equals(AUDIO.subarray(990))).toBe(true);
  });

  it('answers 416 past the end', async () => {
    const r = await call('/uploads/audio/song.mp3', { headers: { Range: 'bytes=1000-1100' } });
    expect(r.status).toBe(416);
    expect(r.headers.get('Content-Range')).toBe('bytes */1000');
  });

  it('ignores a range whose If-Range no longer matches', async () => {
    const r = await call('/uploads/audio/song.mp3', {
      headers: { Range: 'bytes=0-9', 'If-Range': '"stale"' },
    });
    expect(r.status).toBe(200);
  });

  it('answers HEAD without a body', async () => {
    const r = await call('/uploads/audio/song.mp3', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('Content-Length')).toBe('1000');
    expect(r.body).toBeNull();
  });

  it('answers 304 to If-None-Match and If-Modified-Since', async () => {
    const first = await call('/uploads/audio/song.mp3');
    const etag = first.headers.get('ETag') ?? '';
    const lastModified = first.headers.get('Last-Modified') ?? '';
    const a = await call('/uploads/audio/song.mp3', { headers: { 'If-None-Match': etag } });
    expect(a.status).toBe(304);
    expect(a.headers.get('ETag')).toBe(etag);
    const b = await call('/uploads/audio/song.mp3', {
      headers: { 'If-Modified-Since': lastModified },
    });
    expect(b.status).toBe(304);
    const c = await call('/uploads/audio/song.mp3', { headers: { 'If-None-Match': '"nope"' } });
    expect(c.status).toBe(200);
  });

  it('sets Content-Type by extension', async () => {
    expect((await call('/uploads/audio/take.wav')).headers.get('Content-Type')).toBe('audio/wav');
    const png = await call('/uploads/images/a%20b.png');
    expect(png.status).toBe(200);
    expect(png.headers.get('Content-Type')).toBe('image/png');
    expect(png.headers.get('Content-Disposition')).toBeNull();
    // Images are shown to every visitor: a year, immutable (a new upload gets a new name).
    expect(png.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
  });

  it('sends SVG and unknown types as sandboxed downloads', async () => {
    const svg = await call('/uploads/images/logo.svg');
    expect(svg.headers.get('Content-Type')).toBe('image/svg+xml');
    expect(svg.headers.get('Content-Disposition')).toMatch(/^attachment/);
    expect(svg.headers.get('Content-Security-Policy')).toContain('sandbox');
    const txt = await call('/uploads/images/notes.txt');
    expect(txt.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(txt.headers.get('Content-Disposition')).toMatch(/^attachment; filename="notes.txt"/);
  });

  it.each([
    '/uploads/../.env',
    '/uploads/%2e%2e/.env',
    '/uploads/audio/%2e%2e/%2e%2e/.env',
    '/uploads/..%2f.env',
    '/uploads/audio/..%2F..%2F.env',
    '/uploads/%2fetc%2fpasswd',
    '/uploads//etc/passwd',
    '/uploads/audio/song.mp3%00.png',
    '/uploads/..%5c.env',
    '/uploads/.hidden',
    '/uploads/notes-at-the-root.txt',
    '/uploads/audio/escape.mp3',
    '/uploads/audio',
    '/uploads/',
    '/uploads/audio/missing.mp3',
    '/uploads/%E0%A4%A',
  ])('%s is a 404', async (url) => {
    const r = await call(url);
    expect(r.status).toBe(404);
  });

  it('refuses other methods', async () => {
    const r = await call('/uploads/audio/song.mp3', { method: 'DELETE' });
    expect(r.status).toBe(405);
  });
});

describe('/uploads/audio/* of a members-only track', () => {
  const SECRET = '/uploads/audio/secret.mp3';
  let memberCookie = '';

  beforeAll(async () => {
    fs.writeFileSync(path.join(dirs.uploads, 'audio', 'secret.mp3'), AUDIO);
    const { createTrack } = await import('~/models/track-writes.server');
    const { createUser } = await import('~/models/user.server');
    const { createUserSession } = await import('~/auth/auth.server');
    await createTrack({
      title: 'Secret',
      duration: '0:01',
      coverImage: '/uploads/images/a b.png',
      audioFile: SECRET,
      visibility: 'members',
    });
    const user = await createUser({ username: 'listener', password: 'listener-password-1' });
    const headers = await createUserSession(new Request('http://localhost/auth'), user);
    memberCookie = (headers.get('Set-Cookie') ?? '').split(';')[0]!;
  });

  it.each([
    ['a whole file', {}],
    ['a range', { Range: 'bytes=0-99' }],
    ['a conditional request', { 'If-None-Match': '*' }],
    ['a stale session cookie', { Cookie: '__session=forged' }],
  ])('is a 401 without a session: %s', async (_name, headers: Record<string, string>) => {
    for (const url of [SECRET, '/uploads/%61udio/secret.mp3', '/uploads/audio/secret%2Emp3']) {
      const r = await call(url, { headers });
      expect(r.status).toBe(401);
      expect(r.headers.get('Cache-Control')).toBe('private, no-store');
      expect((await body(r)).includes(AUDIO.subarray(0, 16))).toBe(false);
    }
    expect((await call(SECRET, { method: 'HEAD', headers })).status).toBe(401);
  });

  it('is served to a logged-in member, ranges included, for that member only', async () => {
    const whole = await call(SECRET, { headers: { Cookie: memberCookie } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('Cache-Control')).toBe('private, no-cache');
    expect(whole.headers.get('Vary')).toBe('Cookie');
    expect((await body(whole)).equals(AUDIO)).toBe(true);
    const part = await call(SECRET, { headers: { Cookie: memberCookie, Range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect((await body(part)).equals(AUDIO.subarray(10, 20))).toBe(true);
  });
});
