import fs from 'node:fs/promises';
import path from 'node:path';

import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';

import { clearDatabase, setupTestDatabase } from '../../tests/helpers/test-db';

const { uploadsDir } = setupTestDatabase();

const { saveTrack } = await import('./track-save.server');
const { saveGalleryImage } = await import('./gallery-save.server');
const { saveBlogPost } = await import('./blog-save.server');
const { API_CLIENT, answerApi } = await import('~/api/upload-routes.server');
const { FORM_CLIENT } = await import('./upload-form.server');
const { submitTrackForm } = await import('./track-save.server');
const { submitBlogForm } = await import('./blog-save.server');
const tracks = await import('~/models/track.server');
const trackWrites = await import('~/models/track-writes.server');
const gallery = await import('~/models/gallery-image.server');

const FIXTURES = path.resolve(__dirname, '../../tests/fixtures');
const fixture = (name: string) => fs.readFile(path.join(FIXTURES, name));

/** A real JPEG wide enough to get 320w and 640w derivatives. */
const wideJpeg = () =>
  sharp({ create: { width: 800, height: 400, channels: 3, background: { r: 20, g: 90, b: 200 } } })
    .jpeg()
    .toBuffer();

const file = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);

function multipart(fields: Record<string, string | File>, method = 'POST'): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return new Request('http://localhost/x', { method, body: form });
}

/** Every file under UPLOADS_DIR/images and /audio (temporary `.part` files included). */
async function stored(): Promise<string[]> {
  const out: string[] = [];
  for (const folder of ['images', 'audio']) {
    const names = await fs.readdir(path.join(uploadsDir, folder)).catch(() => []);
    out.push(...names.map((n) => `${folder}/${n}`));
  }
  return out.sort();
}

const nameOf = (url: string) => url.slice('/uploads/'.length);

beforeEach(async () => {
  await clearDatabase();
  for (const folder of ['images', 'audio']) {
    await fs.rm(path.join(uploadsDir, folder), { recursive: true, force: true });
    await fs.mkdir(path.join(uploadsDir, folder), { recursive: true });
  }
});

describe('saveTrack', () => {
  it('creates a track: files stored, duration read from the audio, cover derivatives written', async () => {
    const result = await saveTrack(
      multipart({
        title: 'Night Drive',
        coverImage: file(await wideJpeg(), 'cover.jpg'),
        audioFile: file(await fixture('short.mp3'), 'a.mp3'),
      }),
      { mode: 'create' },
      API_CLIENT,
    );
    if (!result.ok) throw new Error(`expected a saved track, got ${result.reason}`);
    expect(result.status).toBe(201);
    const track = result.record;
    expect(track).toMatchObject({ title: 'Night Drive', type: 'Single', featured: false });
    expect(track.duration).toMatch(/^\d+:\d\d$/);
    expect(track.duration).not.toBe('0:00');
    expect(await tracks.getTrack(track.id)).toEqual(track);
    const cover = nameOf(track.coverImage).replace(/\.jpg$/, '');
    expect(await stored()).toEqual(
      [
        nameOf(track.audioFile),
        nameOf(track.coverImage),
        `${cover}-320w.jpg`,
        `${cover}-320w.webp`,
        `${cover}-640w.jpg`,
        `${cover}-640w.webp`,
        `${cover}-800w.webp`,
      ].sort(),
    );
  });

  it('refuses invalid fields and leaves no file behind in the uploads folder', async () => {
    const result = await saveTrack(
      multipart({
        title: '  ',
        duration: '99',
        coverImage: file(await wideJpeg(), 'cover.jpg'),
        audioFile: file(await fixture('short.mp3'), 'a.mp3'),
      }),
      { mode: 'create' },
      API_CLIENT,
    );
    expect(result).toMatchObject({
      ok: false,
      reason: 'invalid',
      status: 400,
      fieldErrors: {
        title: ['Title is required'],
        duration: ['Duration must be MM:SS or H:MM:SS (e.g. 3:45 or 1:02:30)'],
      },
      fileErrors: {},
      missingFiles: false,
    });
    expect(await stored()).toEqual([]);
    expect(await tracks.countTracks()).toBe(0);
  });

  it('reports missing files on create (and the API answers with the form message)', async () => {
    const result = await saveTrack(
      multipart({ title: 'No files', coverImage: file(await fixture('cover.jpg'), 'c.jpg') }),
      { mode: 'create' },
      API_CLIENT,
    );
    expect(result).toMatchObject({
      reason: 'invalid',
      fileErrors: { audioFile: ['Audio file is required'] },
      missingFiles: true,
    });
    expect(await stored()).toEqual([]);
    const response = answerApi(result, { notFound: 'Track not found', missingFiles: 'Missing!' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'Missing!',
      fields: { audioFile: ['Audio file is required'] },
    });
  });

  it('updates a track with a new cover: the old file and its -<w>w derivatives are deleted', async () => {
    const created = await saveTrack(
      multipart({
        title: 'Before',
        duration: '3:00',
        featured: 'true',
        coverImage: file(await wideJpeg(), 'old.jpg'),
        audioFile: file(await fixture('short.mp3'), 'a.mp3'),
      }),
      { mode: 'create' },
      API_CLIENT,
    );
    if (!created.ok) throw new Error(created.reason);
    const old = created.record;
    const oldBase = nameOf(old.coverImage).replace(/\.jpg$/, '');
    expect((await stored()).filter((f) => f.startsWith(`${oldBase}-`))).toHaveLength(5);

    const updated = await saveTrack(
      multipart({ title: 'After', coverImage: file(await fixture('photo.png'), 'new.png') }, 'PUT'),
      { mode: 'update', id: old.id },
      API_CLIENT,
    );
    if (!updated.ok) throw new Error(updated.reason);
    expect(updated.status).toBe(200);
    // The API's PUT keeps what is not sent: featured, type, the duration and the audio file.
    expect(updated.record).toMatchObject({
      title: 'After',
      featured: true,
      duration: '3:00',
      audioFile: old.audioFile,
    });
    expect(updated.record.coverImage).toMatch(/\.png$/);
    const files = await stored();
    expect(files.filter((f) => f.startsWith(oldBase))).toEqual([]);
    expect(files).toContain(nameOf(updated.record.coverImage));
    expect(files).toContain(nameOf(old.audioFile));
  });

  it('the form sends every field: an unchecked featured box clears the flag', async () => {
    const created = await trackWrites.createTrack({
      title: 'Flagged',
      duration: '2:00',
      featured: true,
      coverImage: '/uploads/images/none.jpg',
      audioFile: '/uploads/audio/none.mp3',
    });
    const result = await saveTrack(
      multipart({ title: 'Flagged', type: 'EP', duration: '2:30' }),
      { mode: 'update', id: created.id },
      FORM_CLIENT,
    );
    expect(result).toMatchObject({
      ok: true,
      record: { featured: false, type: 'EP', duration: '2:30' },
    });
  });

  it('an unknown id is not found before the body is read', async () => {
    const request = multipart({ title: 'x' }, 'PUT');
    expect(await saveTrack(request, { mode: 'update', id: 999 }, API_CLIENT)).toEqual({
      ok: false,
      reason: 'not-found',
      status: 404,
    });
    expect(request.bodyUsed).toBe(false);
    expect(await saveTrack(request, { mode: 'update', id: null }, API_CLIENT)).toMatchObject({
      reason: 'not-found',
    });
  });

  it('a body that is not multipart is refused as unsupported-type', async () => {
    const request = new Request('http://localhost/x', {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await saveTrack(request, { mode: 'create' }, API_CLIENT)).toEqual({
      ok: false,
      reason: 'unsupported-type',
      status: 415,
      message: 'Expected multipart/form-data',
    });
  });
});

describe('saveGalleryImage', () => {
  it("requires the image on create with the site's message", async () => {
    const result = await saveGalleryImage(
      multipart({ title: 'No image' }),
      { mode: 'create' },
      API_CLIENT,
    );
    expect(result).toMatchObject({
      reason: 'invalid',
      fileErrors: {
        image: ['Image file is required and must be a valid image (JPEG, PNG, or WEBP)'],
      },
      missingFiles: true,
    });
  });

  it('a failed edit keeps the current image and deletes the new one', async () => {
    const created = await saveGalleryImage(
      multipart({ title: 'Pier', image: file(await fixture('cover.jpg'), 'p.jpg') }),
      { mode: 'create' },
      API_CLIENT,
    );
    if (!created.ok) throw new Error(created.reason);
    const before = await stored();
    const failed = await saveGalleryImage(
      multipart({ title: '', image: file(await fixture('photo.png'), 'n.png') }, 'PUT'),
      { mode: 'update', id: created.record.id },
      API_CLIENT,
    );
    expect(failed).toMatchObject({
      reason: 'invalid',
      fieldErrors: { title: ['Title is required'] },
    });
    expect(await stored()).toEqual(before);
    expect(await gallery.getGalleryImage(created.record.id)).toEqual(created.record);
  });
});

describe('an image that passes the type check but cannot be decoded', () => {
  it('is saved without derivatives, through the API and the form alike (never a 5xx)', async () => {
    const whole = await wideJpeg();
    const truncated = whole.subarray(0, Math.floor(whole.length / 2));
    for (const client of [API_CLIENT, FORM_CLIENT] as const) {
      const result = await saveGalleryImage(
        multipart({ title: 'Cut short', image: file(truncated, 'cut.jpg') }),
        { mode: 'create' },
        client,
      );
      expect(result).toMatchObject({ ok: true, status: 201 });
      if (!result.ok) continue;
      const name = nameOf(result.record.imageUrl);
      const base = name.replace(/\.jpg$/, '');
      // The original is kept and served; no partial set of sizes is left beside it.
      expect((await stored()).filter((f) => f.startsWith(base))).toEqual([name]);
    }
  });
});

describe('saveBlogPost', () => {
  const post = async (slug: string) =>
    multipart({
      title: 'Live at the Pony',
      slug,
      content: 'Body',
      excerpt: 'Short',
      image: file(await fixture('cover.jpg'), 'i.jpg'),
    });

  it('a taken slug is a conflict on `slug`, and the new image is deleted', async () => {
    expect(await saveBlogPost(await post('live'), { mode: 'create' }, API_CLIENT)).toMatchObject({
      ok: true,
      record: { slug: 'live', category: 'NEWS' },
    });
    const before = await stored();
    expect(await saveBlogPost(await post('live'), { mode: 'create' }, API_CLIENT)).toMatchObject({
      ok: false,
      reason: 'conflict',
      status: 409,
      field: 'slug',
      message: 'A post with this slug already exists',
    });
    expect(await stored()).toEqual(before);
  });
});

describe('the admin form answers', () => {
  it('a saved track redirects to the list with a toast cookie', async () => {
    const response = await submitTrackForm(
      multipart({
        title: 'From the form',
        coverImage: file(await fixture('cover.jpg'), 'c.jpg'),
        audioFile: file(await fixture('short.mp3'), 'a.mp3'),
      }),
      { mode: 'create' },
      '/admin/tracks',
    );
    expect(response).toBeInstanceOf(Response);
    const redirect = response as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('Location')).toBe('/admin/tracks');
    expect(redirect.headers.get('Set-Cookie')).toContain('__toast=');
  });

  it('an unknown id is a 404 page', async () => {
    await expect(
      submitTrackForm(multipart({ title: 'x' }), { mode: 'update', id: 12345 }, '/admin/tracks'),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('a post created without a slug gets one from its title; a taken one is a slug error', async () => {
    const request = async () =>
      multipart({
        title: 'Live at the Stone Pony!',
        slug: '',
        content: 'Body',
        excerpt: 'Short',
        image: file(await fixture('cover.jpg'), 'i.jpg'),
      });
    const first = await submitBlogForm(await request(), { mode: 'create' }, '/admin/blog');
    expect((first as Response).status).toBe(302);
    const second = await submitBlogForm(await request(), { mode: 'create' }, '/admin/blog');
    expect(second).not.toBeInstanceOf(Response);
    expect(second).toMatchObject({
      init: { status: 400 },
      data: {
        alertTitle: 'Failed to publish post',
        result: {
          initialValue: { slug: 'live-at-the-stone-pony' },
          error: { slug: ['Another post already uses this slug'] },
        },
      },
    });
  });
});
