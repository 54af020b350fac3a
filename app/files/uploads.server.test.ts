import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as UploadsServer from './uploads.server';

type UploadsModule = typeof UploadsServer;

let dir: string;
let uploads: UploadsModule;

const FIXTURES = path.resolve(__dirname, '../../tests/fixtures');
const fixture = (name: string) => fs.readFile(path.join(FIXTURES, name));

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ns-uploads-test-'));
  process.env.UPLOADS_DIR = dir;
  // A 50 MB audio cap (a 64 MB body): the caps are tested by streaming past them.
  process.env.MAX_AUDIO_MB = '50';
  uploads = await import('./uploads.server');
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await fs.rm(path.join(dir, 'images'), { recursive: true, force: true });
  await fs.rm(path.join(dir, 'audio'), { recursive: true, force: true });
});

/** Every file left under the uploads folder (temporary `.part` files included). */
async function listStored(): Promise<string[]> {
  const out: string[] = [];
  for (const sub of ['images', 'audio']) {
    try {
      for (const f of await fs.readdir(path.join(dir, sub))) out.push(`${sub}/${f}`);
    } catch {
      // folder not created
    }
  }
  return out;
}

function formRequest(form: FormData, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/admin/tracks/new', { method: 'POST', body: form, headers });
}

const SPEC = { coverImage: { kind: 'image' }, audioFile: { kind: 'audio' } } as const;

/** A raw multipart body (to craft names and truncations a browser never sends). */
function rawMultipart(
  boundary: string,
  parts: Array<{ name: string; filename?: string; type?: string; body: Buffer | string }>,
  close = true,
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`));
    if (p.type) chunks.push(Buffer.from(`Content-Type: ${p.type}\r\n`));
    chunks.push(
      Buffer.from('\r\n'),
      Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body),
      Buffer.from('\r\n'),
    );
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

function rawRequest(body: Buffer, boundary: string): Request {
  return new Request('http://localhost/x', {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe('parseMultipartUpload', () => {
  it('stores valid files under fresh names and returns the text fields', async () => {
    const form = new FormData();
    form.set('title', 'Night Drive');
    form.set(
      'coverImage',
      new File([await fixture('cover.jpg')], 'My Cover.JPG', { type: 'image/jpeg' }),
    );
    form.set(
      'audioFile',
      new File([await fixture('short.mp3')], 'song.mp3', { type: 'audio/mpeg' }),
    );
    const result = await uploads.parseMultipartUpload(formRequest(form), SPEC);

    expect(result.fields).toEqual({ title: 'Night Drive' });
    expect(result.fileErrors).toEqual({});
    const cover = result.files.coverImage;
    expect(cover.url).toMatch(/^\/uploads\/images\/[0-9a-f]{32}\.jpg$/);
    expect(cover.mime).toBe('image/jpeg');
    expect(cover.originalName).toBe('My Cover.JPG');
    expect(cover.size).toBe((await fixture('cover.jpg')).length);
    expect(await fs.readFile(cover.path)).toEqual(await fixture('cover.jpg'));
    expect(result.files.audioFile.url).toMatch(/^\/uploads\/audio\/[0-9a-f]{32}\.mp3$/);
    expect((await listStored()).sort()).toEqual(
      [
        `images/${path.basename(cover.path)}`,
        `audio/${path.basename(result.files.audioFile.path)}`,
      ].sort(),
    );
  });

  it('accepts PNG and WAV, and gives each upload a new name', async () => {
    const make = async () => {
      const form = new FormData();
      form.set('coverImage', new File([await fixture('photo.png')], 'p.png'));
      form.set('audioFile', new File([await fixture('tone.wav')], 't.wav'));
      return uploads.parseMultipartUpload(formRequest(form), SPEC);
    };
    const a = await make();
    const b = await make();
    expect(a.files.coverImage.mime).toBe('image/png');
    expect(a.files.audioFile.mime).toBe('audio/wav');
    expect(a.files.coverImage.url).not.toBe(b.files.coverImage.url);
  });

  it('rejects a .jpg that is really text, leaving no file behind', async () => {
    const form = new FormData();
    form.set(
      'coverImage',
      new File([await fixture('not-an-image.jpg')], 'photo.jpg', { type: 'image/jpeg' }),
    );
    const result = await uploads.parseMultipartUpload(formRequest(form), SPEC);
    expect(result.files).toEqual({});
    expect(result.fileErrors.coverImage).toEqual([uploads.UPLOAD_MESSAGES.imageType]);
    expect(await listStored()).toEqual([]);
  });

  it('rejects a real image whose name has the wrong extension, and an image sent as audio', async () => {
    const form = new FormData();
    form.set('coverImage', new File([await fixture('cover.jpg')], 'cover.exe'));
    form.set('audioFile', new File([await fixture('cover.jpg')], 'cover.mp3'));
    const result = await uploads.parseMultipartUpload(formRequest(form), SPEC);
    expect(result.files).toEqual({});
    expect(result.fileErrors.coverImage).toEqual([uploads.UPLOAD_MESSAGES.imageType]);
    expect(result.fileErrors.audioFile).toEqual([uploads.UPLOAD_MESSAGES.audioType]);
    expect(await listStored()).toEqual([]);
  });

  it('rejects an oversize image as a field error and keeps the other file', async () => {
    const big = Buffer.alloc(uploads.UPLOAD_LIMITS.image + 1024, 0);
    (await fixture('cover.jpg')).copy(big); // valid JPEG header, then padding
    const form = new FormData();
    form.set('coverImage', new File([big], 'huge.jpg'));
    form.set('audioFile', new File([await fixture('short.mp3')], 'a.mp3'));
    const result = await uploads.parseMultipartUpload(formRequest(form), SPEC);
    expect(result.fileErrors.coverImage).toEqual([uploads.UPLOAD_MESSAGES.imageSize]);
    expect(result.files.coverImage).toBeUndefined();
    expect(result.files.audioFile).toBeDefined();
    expect(await listStored()).toEqual([`audio/${path.basename(result.files.audioFile.path)}`]);
  });

  it('treats an empty file input as no file', async () => {
    const form = new FormData();
    form.set('title', 'x');
    form.set('coverImage', new File([], ''));
    const result = await uploads.parseMultipartUpload(formRequest(form), SPEC);
    expect(result.files).toEqual({});
    expect(result.fileErrors).toEqual({});
  });

  it('never uses the client name: traversal names are stored under a fresh name in the target folder', async () => {
    const boundary = 'XyZboundary123';
    const jpg = await fixture('cover.jpg');
    const body = rawMultipart(boundary, [
      { name: 'coverImage', filename: '../../../etc/evil.jpg', type: 'image/jpeg', body: jpg },
      {
        name: 'audioFile',
        filename: '..\\..\\x.mp3',
        type: 'audio/mpeg',
        body: await fixture('short.mp3'),
      },
    ]);
    const result = await uploads.parseMultipartUpload(rawRequest(body, boundary), SPEC);
    expect(result.fileErrors).toEqual({});
    const cover = result.files.coverImage;
    expect(path.dirname(cover.path)).toBe(path.join(dir, 'images'));
    expect(path.basename(cover.path)).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(cover.originalName).toBe('evil.jpg');
    expect(path.dirname(result.files.audioFile.path)).toBe(path.join(dir, 'audio'));
    expect(await fs.readdir(path.dirname(dir))).not.toContain('evil.jpg');
  });

  it('ignores files for fields outside the spec', async () => {
    const form = new FormData();
    form.set('other', new File([await fixture('cover.jpg')], 'x.jpg'));
    const result = await uploads.parseMultipartUpload(formRequest(form), SPEC);
    expect(result.files).toEqual({});
    expect(await listStored()).toEqual([]);
  });

  it('refuses a truncated body with 400 and removes the partial file', async () => {
    const boundary = 'truncated-boundary';
    const body = rawMultipart(
      boundary,
      [
        { name: 'title', body: 'x' },
        {
          name: 'coverImage',
          filename: 'c.jpg',
          type: 'image/jpeg',
          body: await fixture('cover.jpg'),
        },
        {
          name: 'audioFile',
          filename: 'a.mp3',
          type: 'audio/mpeg',
          body: await fixture('short.mp3'),
        },
      ],
      false,
    );
    const cut = body.subarray(0, body.length - 4000);
    const error = await uploads
      .parseMultipartUpload(rawRequest(cut, boundary), SPEC)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(400);
    expect(await listStored()).toEqual([]);
  });

  it('refuses a body over the total cap with 413 (by Content-Length, and while streaming)', async () => {
    const form = new FormData();
    form.set('coverImage', new File([await fixture('cover.jpg')], 'c.jpg'));
    const declared = await uploads
      .parseMultipartUpload(
        formRequest(form, { 'Content-Length': String(uploads.UPLOAD_LIMITS.body + 1) }),
        SPEC,
      )
      .catch((e: unknown) => e);
    expect((declared as Response).status).toBe(413);

    // No Content-Length: a stream that keeps going past the cap.
    const boundary = 'stream-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="audioFile"; filename="a.wav"\r\n\r\n`,
    );
    const wav = await fixture('tone.wav');
    const chunk = Buffer.alloc(1024 * 1024, 1);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(Buffer.concat([head, wav]));
        else controller.enqueue(chunk);
        sent += 1;
        if (sent > 80) controller.close();
      },
    });
    const request = new Request('http://localhost/x', {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      duplex: 'half',
    } as RequestInit);
    const streamed = await uploads.parseMultipartUpload(request, SPEC).catch((e: unknown) => e);
    expect((streamed as Response).status).toBe(413);
    expect(await listStored()).toEqual([]);
  });

  it('refuses a request that is not multipart with 415', async () => {
    const request = new Request('http://localhost/x', {
      method: 'POST',
      body: 'a=1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const error = await uploads.parseMultipartUpload(request, SPEC).catch((e: unknown) => e);
    expect((error as Response).status).toBe(415);
  });

  it('discardUploads deletes stored files', async () => {
    const form = new FormData();
    form.set('coverImage', new File([await fixture('cover.jpg')], 'c.jpg'));
    const result = await uploads.parseMultipartUpload(formRequest(form), SPEC);
    expect(await listStored()).toHaveLength(1);
    await uploads.discardUploads(result.files);
    expect(await listStored()).toEqual([]);
  });
});

describe('sniffType', () => {
  it('knows the signatures', () => {
    const bytes = (...b: number[]) => Uint8Array.from([...b, ...new Array(12).fill(0)]);
    expect(uploads.sniffType('image', bytes(0xff, 0xd8, 0xff, 0xe0))?.mime).toBe('image/jpeg');
    expect(uploads.sniffType('audio', bytes(0x49, 0x44, 0x33))?.mime).toBe('audio/mpeg');
    expect(uploads.sniffType('audio', bytes(0xff, 0xfb, 0x90))?.mime).toBe('audio/mpeg');
    expect(uploads.sniffType('audio', bytes(0xff, 0xe8))).toBeNull(); // reserved version/layer
    expect(uploads.sniffType('image', new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))?.mime).toBe(
      'image/webp',
    );
    expect(uploads.sniffType('audio', new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBeNull();
    expect(uploads.sniffType('image', new TextEncoder().encode('<svg xmlns="http://'))).toBeNull();
  });
});

describe('readAudioDuration', () => {
  it('reads m:ss from MP3 and WAV, null for junk', async () => {
    expect(await uploads.readAudioDuration(path.join(FIXTURES, 'short.mp3'))).toBe('0:03');
    expect(await uploads.readAudioDuration(path.join(FIXTURES, 'tone.wav'))).toBe('0:02');
    expect(await uploads.readAudioDuration(path.join(FIXTURES, 'not-an-image.jpg'))).toBeNull();
  });
});
