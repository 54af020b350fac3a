import { expect, test } from '@playwright/test';

import {
  expectEntity,
  expectError,
  expectFieldErrors,
  expectJson,
  files,
  SAME_ORIGIN,
  unique,
  useRoles,
} from './helpers';

const r = useRoles();

const IMAGE_FILE_MESSAGE = 'Image file is required and must be a valid image (JPEG, PNG, or WEBP)';

/** The uploaded file is served under /uploads/images/ with a fresh name. */
async function expectServed(url: unknown, type: RegExp) {
  expect(url).toMatch(/^\/uploads\/images\/[0-9a-f]{32}\.(jpg|png|webp)$/);
  const response = await r.anon.get(String(url));
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(type);
}

async function expectGone(url: unknown) {
  expect((await r.anon.get(String(url))).status()).toBe(404);
}

test.describe('gallery', () => {
  test('POST (201) → listed → PUT keeps the image → PUT replaces it → DELETE (204) → 404', async () => {
    const title = `Pier at 2am ${unique()}`;
    const created = expectEntity(
      await expectJson(
        await r.admin.post('/api/admin/gallery', {
          multipart: { title, description: 'Long exposure.', image: files.cover() },
          headers: SAME_ORIGIN,
        }),
        201,
      ),
      'gallery',
    );
    expect(created).toMatchObject({ title, description: 'Long exposure.' });
    await expectServed(created.imageUrl, /^image\/jpeg/);
    const listed = (await expectJson(await r.anon.get('/api/gallery'), 200)) as { id: number }[];
    expect(listed.map((g) => g.id)).toContain(created.id);

    // No image and no description: the image stays, the description is cleared.
    const kept = expectEntity(
      await expectJson(
        await r.admin.put(`/api/admin/gallery/${created.id}`, {
          multipart: { title: `${title} (edited)` },
          headers: SAME_ORIGIN,
        }),
        200,
      ),
      'gallery',
    );
    expect(kept).toMatchObject({
      title: `${title} (edited)`,
      description: null,
      imageUrl: created.imageUrl,
    });

    const replaced = expectEntity(
      await expectJson(
        await r.admin.put(`/api/admin/gallery/${created.id}`, {
          multipart: { title, description: 'Now a PNG.', image: files.png() },
          headers: SAME_ORIGIN,
        }),
        200,
      ),
      'gallery',
    );
    expect(replaced.imageUrl).not.toBe(created.imageUrl);
    await expectServed(replaced.imageUrl, /^image\/png/);
    await expectGone(created.imageUrl);

    expect(
      (await r.admin.delete(`/api/admin/gallery/${created.id}`, { headers: SAME_ORIGIN })).status(),
    ).toBe(204);
    await expectGone(replaced.imageUrl);
    await expectError(
      await r.admin.delete(`/api/admin/gallery/${created.id}`, { headers: SAME_ORIGIN }),
      404,
      'Gallery image not found',
    );
    await expectError(
      await r.admin.put(`/api/admin/gallery/${created.id}`, {
        multipart: { title },
        headers: SAME_ORIGIN,
      }),
      404,
    );
  });

  test('400: title required, image required on create', async () => {
    const response = await r.admin.post('/api/admin/gallery', {
      multipart: { title: '  ', description: 'No image here' },
      headers: SAME_ORIGIN,
    });
    await expectFieldErrors(response, { title: 'Title is required', image: IMAGE_FILE_MESSAGE });
  });

  test('400 for a file that is not a JPEG, PNG or WEBP (by its bytes)', async () => {
    await expectFieldErrors(
      await r.admin.post('/api/admin/gallery', {
        multipart: { title: `Fake ${unique()}`, image: files.notAnImage() },
        headers: SAME_ORIGIN,
      }),
      { image: /JPEG, PNG, or WEBP/ },
    );
    // An MP3 renamed .jpg is not an image either.
    await expectFieldErrors(
      await r.admin.post('/api/admin/gallery', {
        multipart: {
          title: `Fake ${unique()}`,
          image: { ...files.mp3(), name: 'sound.jpg', mimeType: 'image/jpeg' },
        },
        headers: SAME_ORIGIN,
      }),
      { image: null },
    );
  });

  test('400 for an image over 10 MB', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1024);
    files.cover().buffer.copy(big);
    await expectFieldErrors(
      await r.admin.post('/api/admin/gallery', {
        multipart: {
          title: `Huge ${unique()}`,
          image: { name: 'huge.jpg', mimeType: 'image/jpeg', buffer: big },
        },
        headers: SAME_ORIGIN,
      }),
      { image: /at most 10 MB/ },
    );
  });

  test('415 for a JSON body', async () => {
    await expectError(
      await r.admin.post('/api/admin/gallery', { data: { title: 'JSON' }, headers: SAME_ORIGIN }),
      415,
    );
  });

  test('a failed edit keeps the current image', async () => {
    const created = (await expectJson(
      await r.admin.post('/api/admin/gallery', {
        multipart: { title: `Keep ${unique()}`, image: files.cover() },
        headers: SAME_ORIGIN,
      }),
      201,
    )) as { id: number; imageUrl: string };
    await expectFieldErrors(
      await r.admin.put(`/api/admin/gallery/${created.id}`, {
        multipart: { title: '', image: files.png() },
        headers: SAME_ORIGIN,
      }),
      { title: 'Title is required' },
    );
    await expectServed(created.imageUrl, /^image\/jpeg/);
    await r.admin.delete(`/api/admin/gallery/${created.id}`, { headers: SAME_ORIGIN });
  });
});

test.describe('blog', () => {
  const fields = (slug: string) => ({
    title: `Summer tour announced ${slug}`,
    slug,
    content: 'We are hitting the road this summer.\n\nSee you on the boardwalk.',
    excerpt: 'Dates for the summer tour.',
    category: 'EVENTS',
  });

  test('POST (201) → public by slug → PUT (200) keeps the image → DELETE (204) → 404', async () => {
    const slug = `tour-${unique()}`;
    const created = expectEntity(
      await expectJson(
        await r.admin.post('/api/admin/blog', {
          multipart: { ...fields(slug), image: files.cover() },
          headers: SAME_ORIGIN,
        }),
        201,
      ),
      'blog',
    );
    expect(created).toMatchObject(fields(slug));
    await expectServed(created.imageUrl, /^image\/jpeg/);
    expect(await expectJson(await r.anon.get(`/api/blog/${slug}`), 200)).toEqual(created);
    const events = (await expectJson(await r.anon.get('/api/blog?category=EVENTS'), 200)) as {
      id: number;
    }[];
    expect(events.map((p) => p.id)).toContain(created.id);

    const newSlug = `${slug}-v2`;
    const updated = expectEntity(
      await expectJson(
        await r.admin.put(`/api/admin/blog/${created.id}`, {
          multipart: { ...fields(newSlug), category: 'REVIEWS' },
          headers: SAME_ORIGIN,
        }),
        200,
      ),
      'blog',
    );
    expect(updated).toMatchObject({
      slug: newSlug,
      category: 'REVIEWS',
      imageUrl: created.imageUrl,
    });
    await expectError(await r.anon.get(`/api/blog/${slug}`), 404);

    expect(
      (await r.admin.delete(`/api/admin/blog/${created.id}`, { headers: SAME_ORIGIN })).status(),
    ).toBe(204);
    await expectGone(created.imageUrl);
    await expectError(await r.anon.get(`/api/blog/${newSlug}`), 404);
    await expectError(
      await r.admin.delete(`/api/admin/blog/${created.id}`, { headers: SAME_ORIGIN }),
      404,
    );
  });

  test('409 for a taken slug, on create and on edit', async () => {
    const a = `taken-${unique()}`;
    const b = `other-${unique()}`;
    const first = (await expectJson(
      await r.admin.post('/api/admin/blog', {
        multipart: { ...fields(a), image: files.cover() },
        headers: SAME_ORIGIN,
      }),
      201,
    )) as { id: number };
    const second = (await expectJson(
      await r.admin.post('/api/admin/blog', {
        multipart: { ...fields(b), image: files.png() },
        headers: SAME_ORIGIN,
      }),
      201,
    )) as { id: number };
    await expectFieldErrors(
      await r.admin.post('/api/admin/blog', {
        multipart: { ...fields(a), image: files.cover() },
        headers: SAME_ORIGIN,
      }),
      { slug: 'A post with this slug already exists' },
      409,
    );
    await expectFieldErrors(
      await r.admin.put(`/api/admin/blog/${second.id}`, {
        multipart: fields(a),
        headers: SAME_ORIGIN,
      }),
      { slug: 'A post with this slug already exists' },
      409,
    );
    // Saving a post under its own slug is fine.
    await expectJson(
      await r.admin.put(`/api/admin/blog/${first.id}`, {
        multipart: fields(a),
        headers: SAME_ORIGIN,
      }),
      200,
    );
    for (const id of [first.id, second.id])
      await r.admin.delete(`/api/admin/blog/${id}`, { headers: SAME_ORIGIN });
  });

  test('400 with the form messages', async () => {
    const response = await r.admin.post('/api/admin/blog', {
      multipart: { title: '', slug: 'Not A Slug!', content: '', excerpt: '', category: 'GOSSIP' },
      headers: SAME_ORIGIN,
    });
    await expectFieldErrors(response, {
      title: 'Title is required',
      slug: 'Slug must contain only lowercase letters, numbers, and hyphens',
      content: 'Content is required',
      excerpt: 'Excerpt is required',
      category: null,
      image: IMAGE_FILE_MESSAGE,
    });
    await expectFieldErrors(
      await r.admin.post('/api/admin/blog', {
        multipart: { ...fields('ab'), image: files.cover() },
        headers: SAME_ORIGIN,
      }),
      { slug: 'String must contain at least 3 character(s)' },
    );
    await expectFieldErrors(
      await r.admin.post('/api/admin/blog', {
        multipart: { ...fields(`bad-image-${unique()}`), image: files.notAnImage() },
        headers: SAME_ORIGIN,
      }),
      { image: /JPEG, PNG, or WEBP/ },
    );
  });

  test('category defaults to NEWS', async () => {
    const slug = `default-cat-${unique()}`;
    const { category: _c, ...rest } = fields(slug);
    const created = (await expectJson(
      await r.admin.post('/api/admin/blog', {
        multipart: { ...rest, image: files.png() },
        headers: SAME_ORIGIN,
      }),
      201,
    )) as { id: number; category: string };
    expect(created.category).toBe('NEWS');
    await r.admin.delete(`/api/admin/blog/${created.id}`, { headers: SAME_ORIGIN });
  });

  test('a malformed multipart body is a 400', async () => {
    const response = await r.admin.post('/api/admin/blog', {
      headers: { ...SAME_ORIGIN, 'Content-Type': 'multipart/form-data; boundary=xyz' },
      data: Buffer.from(
        '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nunterminated',
      ),
    });
    await expectError(response, 400);
  });
});
