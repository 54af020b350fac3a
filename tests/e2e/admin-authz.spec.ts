import fs from 'node:fs';

import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';

import { audioFile, coverFile, unique, withRunLock } from './admin-helpers';
import { expect, test, USER } from './fixtures';

/**
 * Every admin page and admin action of the tracks, gallery, blog and dashboard screens,
 * requested as a visitor and as a plain user, is refused with a redirect and changes
 * nothing. (Actions are checked separately from loaders: a layout's guard never protects
 * a child's action.)
 */

type Item = { id: number; title: string };
type Track = Item & { featured: boolean; audioFile: string };

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.ok(), `${url} should answer`).toBe(true);
  return (await response.json()) as T;
}

const seeded = <T extends Item>(list: T[]) => {
  const item = list.find((x) => !x.title.startsWith('E2E'));
  if (!item) throw new Error('no seeded item');
  return item;
};

const files = () => ({
  coverImage: { name: 'c.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(coverFile()) },
  audioFile: { name: 'a.mp3', mimeType: 'audio/mpeg', buffer: fs.readFileSync(audioFile()) },
  image: { name: 'i.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(coverFile()) },
});

for (const actor of ['visitor', 'plain user'] as const) {
  test.describe(`as a ${actor}`, () => {
    const expectRefused = (location: string | undefined, url: string) => {
      if (actor === 'visitor') {
        expect(location, url).toBe(`/auth?${new URLSearchParams({ redirectTo: url })}`);
      } else {
        expect(location, url).toBe('/');
      }
    };

    /** A fresh API context: anonymous, or logged in as a plain (registered) user. */
    const actorRequest = async (
      playwright: PlaywrightWorkerArgs['playwright'],
      baseURL: string | undefined,
    ): Promise<APIRequestContext> => {
      const context = await playwright.request.newContext({ baseURL });
      if (actor === 'plain user') {
        await context.post('/auth', {
          form: {
            intent: 'register',
            username: USER.username,
            password: USER.password,
            confirmPassword: USER.password,
          },
          maxRedirects: 0,
        });
        const login = await context.post('/auth', {
          form: { intent: 'login', username: USER.username, password: USER.password },
          maxRedirects: 0,
        });
        expect(login.status()).toBe(302);
      }
      return context;
    };

    test('every admin page redirects and leaks no data', async ({ playwright, baseURL }) => {
      const request = await actorRequest(playwright, baseURL);
      const admin = await playwright.request.newContext({ baseURL }); // public reads
      const track = seeded(await getJson<Track[]>(admin, '/api/tracks'));
      const image = seeded(await getJson<Item[]>(admin, '/api/gallery'));
      const post = seeded(await getJson<Item[]>(admin, '/api/blog'));
      const urls = [
        '/admin',
        '/admin/tracks',
        '/admin/tracks?tab=featured',
        '/admin/tracks/new',
        '/admin/tracks/settings',
        `/admin/tracks/${track.id}/edit`,
        `/admin/tracks/${track.id}/delete`,
        '/admin/gallery',
        '/admin/gallery/new',
        `/admin/gallery/${image.id}`,
        `/admin/gallery/${image.id}/edit`,
        `/admin/gallery/${image.id}/delete`,
        '/admin/blog',
        '/admin/blog?category=NEWS',
        '/admin/blog/new',
        `/admin/blog/${post.id}/edit`,
        `/admin/blog/${post.id}/delete`,
      ];
      for (const url of urls) {
        const response = await request.get(url, { maxRedirects: 0 });
        expect(response.status(), url).toBe(302);
        expectRefused(response.headers()['location'], url);
      }
      // The single-fetch data endpoints (used by client navigations) leak nothing either.
      for (const url of [
        '/admin/tracks.data',
        `/admin/tracks/${track.id}/edit.data`,
        '/admin/gallery.data',
        '/admin/blog.data',
        '/admin.data',
      ]) {
        const response = await request.get(url, { maxRedirects: 0 });
        const body = await response.text();
        expect(body, url).not.toContain(track.audioFile);
      }
    });

    test('every admin action is refused and changes nothing', async ({ playwright, baseURL }) => {
      const request = await actorRequest(playwright, baseURL);
      const reader = await playwright.request.newContext({ baseURL }); // public reads
      const title = unique('E2E Intruder');

      // Under the featured lock: the featured flags it compares are changed by the
      // featured-track test, under the same lock.
      await withRunLock('featured', async () => {
        const tracksBefore = await getJson<Track[]>(reader, '/api/tracks');
        const imagesBefore = await getJson<Item[]>(reader, '/api/gallery');
        const postsBefore = await getJson<Item[]>(reader, '/api/blog');
        const track = seeded(tracksBefore);
        const image = seeded(imagesBefore);
        const post = seeded(postsBefore);
        const featuredBefore = new Map(tracksBefore.map((t) => [t.id, t.featured]));
        const rotationBefore = (await getJson<{ weeklyRotation?: boolean }>(reader, '/api/theme'))
          .weeklyRotation;

        const forms: Array<[string, Record<string, string>]> = [
          [
            '/admin/tracks',
            { intent: 'toggle-featured', id: String(track.id), featured: String(!track.featured) },
          ],
          ['/admin/tracks', { intent: 'randomize' }],
          ['/admin/tracks?tab=featured', { intent: 'randomize' }],
          ['/admin/tracks/settings', { weeklyRotation: rotationBefore ? '' : 'on' }],
          [`/admin/tracks/${track.id}/delete`, {}],
          [`/admin/gallery/${image.id}/delete`, {}],
          [`/admin/blog/${post.id}/delete`, {}],
        ];
        for (const [url, form] of forms) {
          const response = await request.post(url, { form, maxRedirects: 0 });
          expect(response.status(), url).toBe(302);
          expectRefused(response.headers()['location'], url);
        }
        const f = files();
        const multipart: Array<[string, Record<string, string | (typeof f)['image']>]> = [
          ['/admin/tracks/new', { title, coverImage: f.coverImage, audioFile: f.audioFile }],
          [
            `/admin/tracks/${track.id}/edit`,
            { title, coverImage: f.coverImage, audioFile: f.audioFile },
          ],
          ['/admin/gallery/new', { title, image: f.image }],
          [`/admin/gallery/${image.id}/edit`, { title, image: f.image }],
          [
            '/admin/blog/new',
            {
              title,
              slug: 'e2e-intruder',
              content: 'x'.repeat(20),
              excerpt: 'x',
              category: 'NEWS',
              image: f.image,
            },
          ],
          [
            `/admin/blog/${post.id}/edit`,
            {
              title,
              slug: 'e2e-intruder',
              content: 'x'.repeat(20),
              excerpt: 'x',
              category: 'NEWS',
              image: f.image,
            },
          ],
        ];
        for (const [url, body] of multipart) {
          const response = await request.post(url, { multipart: body, maxRedirects: 0 });
          expect(response.status(), url).toBe(302);
          expectRefused(response.headers()['location'], url);
        }

        const tracksAfter = await getJson<Track[]>(reader, '/api/tracks');
        const imagesAfter = await getJson<Item[]>(reader, '/api/gallery');
        const postsAfter = await getJson<Item[]>(reader, '/api/blog');
        expect(tracksAfter.find((t) => t.id === track.id)).toEqual(track);
        expect(imagesAfter.find((i) => i.id === image.id)).toEqual(image);
        expect(postsAfter.find((p) => p.id === post.id)).toEqual(post);
        for (const list of [tracksAfter, imagesAfter, postsAfter]) {
          expect(list.some((x) => x.title === title)).toBe(false);
        }
        for (const t of tracksAfter) {
          if (featuredBefore.has(t.id)) expect(t.featured, t.title).toBe(featuredBefore.get(t.id));
        }
        expect(
          (await getJson<{ weeklyRotation?: boolean }>(reader, '/api/theme')).weeklyRotation,
        ).toBe(rotationBefore);
      });
    });
  });
}
