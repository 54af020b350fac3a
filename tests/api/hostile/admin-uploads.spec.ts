import { type APIRequestContext, expect, test } from '@playwright/test';

import { declaredChunkWavBuffer, wavWithHeader } from '../../helpers/wav';
import {
  disposeRoles,
  type FilePart,
  files,
  type Roles,
  roles,
  SAME_ORIGIN,
  unique,
} from '../helpers';
import { raw } from '../raw-http';
import {
  big,
  type Case,
  cookieOf,
  type Count,
  junk,
  marked,
  MB,
  multipartBody,
  req,
  type Role,
  runGroup,
} from './support';

/**
 * Hostile multipart uploads to the admin /api (tracks, gallery, blog): see ./support.ts.
 * One test: the track, image and post it targets must come out of all its groups unchanged.
 */

let r: Roles;
const sent: Count = { cases: 0 };
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input/admin-uploads] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

function uploadCases(
  method: 'post' | 'put',
  path: string,
  valid: (m: string) => Record<string, string>,
  fileField: 'image' | 'coverImage',
  breakIt: (fields: Record<string, string>) => Record<string, string>,
  extra: (m: string) => Record<string, FilePart> = () => ({}),
): Case[] {
  const mp = (fields: Record<string, string | FilePart>) => (ctx: APIRequestContext) =>
    req(ctx, method, path, { multipart: fields, headers: SAME_ORIGIN });
  const boundary = '----hostileBoundary7MA4YWxkTrZu0gW';
  const list: Case[] = [
    { name: 'no fields, no files', send: (ctx) => mp({})(ctx) },
    {
      name: 'whitespace-only fields, no file',
      send: (ctx, m) => mp(Object.fromEntries(Object.keys(valid(m)).map((k) => [k, '   '])))(ctx),
    },
    {
      name: 'text pretending to be an image',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: junk(m, 'cover.jpg', 'image/jpeg') })(ctx),
    },
    {
      name: 'traversal file name with junk content',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: junk(m, `../../../${m}.jpg`, 'image/jpeg') })(
          ctx,
        ),
    },
    {
      name: 'traversal file name, real image, broken field',
      send: (ctx, m) =>
        mp({
          ...breakIt(valid(m)),
          ...extra(m),
          [fileField]: marked(files.cover(), m, `..\\..\\${m}.jpg`),
        })(ctx),
    },
    {
      name: 'an SVG with a script as the image',
      send: (ctx, m) =>
        mp({
          ...valid(m),
          ...extra(m),
          [fileField]: {
            name: 'x.svg',
            mimeType: 'image/svg+xml',
            buffer: Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg"><script>alert("${m}")</script></svg>`,
            ),
          },
        })(ctx),
    },
    {
      name: 'an HTML file named .jpg',
      send: (ctx, m) =>
        mp({
          ...valid(m),
          ...extra(m),
          [fileField]: {
            name: `${m}.jpg`,
            mimeType: 'text/html',
            buffer: Buffer.from(`<html><script>${m}</script>`),
          },
        })(ctx),
    },
    {
      name: 'audio as the image',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: marked(files.mp3(), m, 'cover.jpg') })(ctx),
    },
    {
      name: 'file field sent as text',
      send: (ctx, m) => mp({ ...breakIt(valid(m)), [fileField]: `/uploads/images/${m}.jpg` })(ctx),
    },
    {
      name: '1 MB title (field limit)',
      send: (ctx, m) =>
        mp({ ...valid(m), title: big(m), ...extra(m), [fileField]: marked(files.cover(), m) })(ctx),
    },
    {
      name: 'operator keys title[$ne]',
      send: (ctx, m) => mp({ 'title[$ne]': m, [fileField]: marked(files.cover(), m) })(ctx),
    },
    {
      name: '<script> in a field, another field broken',
      send: (ctx, m) =>
        mp({
          ...breakIt(
            Object.fromEntries(Object.keys(valid(m)).map((k) => [k, `<script>${m}</script>`])),
          ),
          ...extra(m),
          [fileField]: marked(files.cover(), m),
        })(ctx),
    },
    {
      name: 'JSON instead of multipart',
      send: (ctx, m) => req(ctx, method, path, { data: valid(m), headers: SAME_ORIGIN }),
    },
    {
      name: 'urlencoded instead of multipart',
      send: (ctx, m) => req(ctx, method, path, { form: valid(m), headers: SAME_ORIGIN }),
    },
    {
      name: 'multipart without a boundary',
      send: async (ctx, m) =>
        req(ctx, method, path, {
          data: `title=${m}`,
          headers: { ...SAME_ORIGIN, 'Content-Type': 'multipart/form-data' },
        }),
    },
    {
      // Over the body cap (MAX_AUDIO_MB, 1024 by default, + 14 MB; decision 036).
      name: 'declared Content-Length of 2 GB',
      send: async (_ctx, m) =>
        raw(
          method.toUpperCase(),
          path,
          {
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(2048 * MB),
          },
          [multipartBody(boundary, valid(m)).subarray(0, 100)],
          {
            cookie: await cookieOf(r, 'admin'),
            endEarly: true,
          },
        ),
    },
    {
      name: 'truncated multipart (no closing boundary)',
      send: async (_ctx, m) => {
        const full = multipartBody(boundary, valid(m), {
          ...marked(files.cover(), m),
          field: fileField,
        });
        const cut = full.subarray(0, full.length - 400);
        return raw(
          method.toUpperCase(),
          path,
          {
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(cut.length),
          },
          [cut],
          {
            cookie: await cookieOf(r, 'admin'),
          },
        );
      },
    },
    {
      name: 'garbage between boundaries',
      send: async (_ctx, m) => {
        const body = Buffer.from(
          `--${boundary}\r\nthis is not a header\r\n\r\n${m}\r\n--${boundary}--\r\n`,
        );
        return raw(
          method.toUpperCase(),
          path,
          {
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(body.length),
          },
          [body],
          {
            cookie: await cookieOf(r, 'admin'),
          },
        );
      },
    },
    {
      name: 'image of 11 MB (over the 10 MB limit)',
      send: (ctx, m) =>
        mp({
          ...valid(m),
          ...extra(m),
          [fileField]: {
            name: 'huge.jpg',
            mimeType: 'image/jpeg',
            buffer: Buffer.concat([files.cover().buffer, Buffer.alloc(11 * MB, 0), Buffer.from(m)]),
          },
        })(ctx),
    },
    {
      name: 'as a plain user',
      role: 'user',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: marked(files.cover(), m) })(ctx),
    },
    {
      name: 'anonymous',
      role: 'anon',
      send: (ctx, m) =>
        mp({ ...valid(m), ...extra(m), [fileField]: marked(files.cover(), m) })(ctx),
    },
  ];
  return list.map((c) => ({ role: 'admin' as Role, ...c }));
}

test('hostile input: admin uploads (tracks, gallery, blog)', async () => {
  test.setTimeout(180_000);
  const trackValid = (m: string) => ({
    title: `Track ${m}`,
    artist: 'Night Shore',
    duration: '3:45',
    featured: 'false',
  });
  const galleryValid = (m: string) => ({ title: `Image ${m}`, description: `About ${m}` });
  const blogValid = (m: string) => ({
    title: `Post ${m}`,
    slug: `post-${m.toLowerCase()}`,
    content: `Content ${m}`,
    excerpt: `Excerpt ${m}`,
    category: 'NEWS',
  });
  const audio = (m: string) => ({ audioFile: marked(files.mp3(), m) });

  // Existing items for the PUT cases (created cleanly, without the group's marker).
  const seed = unique();
  const gallery = (await (
    await r.admin.post('/api/admin/gallery', {
      multipart: { title: `Target ${seed}`, image: files.cover() },
      headers: SAME_ORIGIN,
    })
  ).json()) as { id: number; title: string; imageUrl: string };
  const blog = (await (
    await r.admin.post('/api/admin/blog', {
      multipart: {
        title: `Target ${seed}`,
        slug: `target-${seed}`,
        content: 'Body text.',
        excerpt: 'Short.',
        category: 'NEWS',
        image: files.cover(),
      },
      headers: SAME_ORIGIN,
    })
  ).json()) as { id: number; title: string; imageUrl: string };
  const track = (await (
    await r.admin.post('/api/admin/tracks', {
      multipart: {
        title: `Target ${seed}`,
        duration: '1:00',
        featured: 'false',
        coverImage: files.cover(),
        audioFile: files.mp3(),
      },
      headers: SAME_ORIGIN,
    })
  ).json()) as { id: number; title: string; coverImage: string; audioFile: string };
  expect(gallery.id && blog.id && track.id).toBeTruthy();

  await runGroup(r, sent, 'admin uploads', [
    {
      endpoint: 'POST /api/admin/tracks',
      cases: uploadCases(
        'post',
        '/api/admin/tracks',
        trackValid,
        'coverImage',
        (f) => ({ ...f, duration: '99:99:99' }),
        audio,
      ),
    },
    {
      endpoint: 'POST /api/admin/tracks (audio file)',
      cases: (
        [
          {
            name: 'text as audio',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: junk(m, 'a.mp3', 'audio/mpeg'),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'image as audio',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.cover(), m, 'a.mp3'),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'audio file named ../../x.mp3 with junk',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: junk(m, '../../x.mp3', 'audio/mpeg'),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'no audio file',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: { ...trackValid(m), coverImage: marked(files.cover(), m) },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'valid files, empty title',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  title: ' ',
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'valid files, type outside the list',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  type: `Mixtape ${m}`,
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'valid files, artist of 1 MB',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  artist: big(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'two audio files',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  title: '',
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.wav(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
          // Issue 38 (decision 046): WAV headers the media job would refuse are refused at once.
          ...(
            [
              [
                'a WAV declaring a 2 GB fmt chunk',
                declaredChunkWavBuffer('fmt ', 2 ** 31, 256 * 1024),
              ],
              ['a 4 kHz WAV', wavWithHeader({ sampleRate: 4000 })],
              ['a 400 kHz WAV', wavWithHeader({ sampleRate: 400_000 })],
              ['a WAV of no channels', wavWithHeader({ channels: 0 })],
              ['a WAV of 12-bit samples', wavWithHeader({ bits: 12 })],
              ['a WAV whose block align lies', wavWithHeader({ blockAlign: 7 })],
            ] as const
          ).map(([name, bytes]) => ({
            name,
            send: (ctx: APIRequestContext, m: string) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  coverImage: marked(files.cover(), m),
                  audioFile: marked({ name: 'set.wav', mimeType: 'audio/wav', buffer: bytes }, m),
                },
                headers: SAME_ORIGIN,
              }),
          })),
          {
            name: 'audio with a NUL in the file name',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  duration: 'x',
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m, 'a\u0000.mp3'),
                },
                headers: SAME_ORIGIN,
              }),
          },
          {
            name: 'featured as {"$ne"}',
            send: (ctx, m) =>
              req(ctx, 'post', '/api/admin/tracks', {
                multipart: {
                  ...trackValid(m),
                  'featured[$ne]': 'x',
                  title: '',
                  coverImage: marked(files.cover(), m),
                  audioFile: marked(files.mp3(), m),
                },
                headers: SAME_ORIGIN,
              }),
          },
        ] satisfies Case[]
      ).map((c) => ({ ...c, role: 'admin' as const })),
    },
    {
      endpoint: 'PUT /api/admin/tracks/:id',
      cases: uploadCases('put', `/api/admin/tracks/${track.id}`, trackValid, 'coverImage', (f) => ({
        ...f,
        title: '',
      })),
    },
    {
      endpoint: 'POST /api/admin/gallery',
      cases: uploadCases('post', '/api/admin/gallery', galleryValid, 'image', (f) => ({
        ...f,
        title: '',
      })),
    },
    {
      endpoint: 'PUT /api/admin/gallery/:id',
      cases: uploadCases('put', `/api/admin/gallery/${gallery.id}`, galleryValid, 'image', (f) => ({
        ...f,
        title: '',
      })),
    },
    {
      endpoint: 'POST /api/admin/blog',
      cases: uploadCases('post', '/api/admin/blog', blogValid, 'image', (f) => ({
        ...f,
        slug: 'Not A Slug!',
      })),
    },
    {
      endpoint: 'POST /api/admin/blog (slugs)',
      cases: [
        'Ünïcödé-slug',
        'a',
        '../etc',
        'slug with spaces',
        'UPPER',
        '-leading',
        'trailing-',
        'double--dash',
        '<script>',
        'ok/slash',
        `${'a'.repeat(121)}`,
      ].map((slug) => ({
        name: `slug ${JSON.stringify(slug.slice(0, 30))}`,
        role: 'admin' as const,
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', '/api/admin/blog', {
            multipart: { ...blogValid(m), slug, image: marked(files.cover(), m) },
            headers: SAME_ORIGIN,
          }),
      })),
    },
    {
      endpoint: 'PUT /api/admin/blog/:id',
      cases: uploadCases('put', `/api/admin/blog/${blog.id}`, blogValid, 'image', (f) => ({
        ...f,
        slug: 'x',
      })),
    },
  ]);

  // The existing items are untouched.
  const images = (await (await r.anon.get('/api/gallery')).json()) as {
    id: number;
    title: string;
    imageUrl: string;
  }[];
  expect(images.find((g) => g.id === gallery.id)).toMatchObject({
    title: gallery.title,
    imageUrl: gallery.imageUrl,
  });
  expect(await (await r.anon.get(`/api/blog/target-${seed}`)).json()).toMatchObject({
    title: blog.title,
    imageUrl: blog.imageUrl,
  });
  const tracks = (await (await r.anon.get('/api/tracks')).json()) as { id: number }[];
  expect(tracks.find((t) => t.id === track.id)).toMatchObject({
    title: track.title,
    coverImage: track.coverImage,
    audioFile: track.audioFile,
  });
  for (const url of [gallery.imageUrl, blog.imageUrl, track.coverImage, track.audioFile]) {
    expect((await r.anon.get(url)).status(), url).toBe(200);
  }
  await r.admin.delete(`/api/admin/gallery/${gallery.id}`, { headers: SAME_ORIGIN });
  await r.admin.delete(`/api/admin/blog/${blog.id}`, { headers: SAME_ORIGIN });
  await r.admin.delete(`/api/admin/tracks/${track.id}`, { headers: SAME_ORIGIN });
});
