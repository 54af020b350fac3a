import fs from 'node:fs';
import path from 'node:path';

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// env.server reads the environment once, at import: point it at a scratch folder first.
const dirs = await vi.hoisted(async () => {
  const base = await (
    await import('../../tests/helpers/scratch-env')
  ).scratchEnv('image-derivatives-');
  const nodePath = await import('node:path');
  return { base, images: nodePath.join(base, 'uploads', 'images') };
});

const { prepareUploadedImage, imageInfo, imageInfos, IMAGE_INFO_REVALIDATE_MS } =
  await import('./image-derivatives.server');
const { deleteUploadedFile } = await import('./stored-files.server');
const { ResponsiveImage, buildSrcSets } = await import('~/components/ui/responsive-image');
const { derivativeUrl } = await import('~/utils/image-url');

async function writeImage(
  name: string,
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp',
) {
  const file = path.join(dirs.images, name);
  await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .toFormat(format)
    .toFile(file);
  return file;
}

const list = () => fs.readdirSync(dirs.images).sort();

beforeAll(() => fs.mkdirSync(dirs.images, { recursive: true }));
afterAll(() => fs.rmSync(dirs.base, { recursive: true, force: true }));

describe('prepareUploadedImage', () => {
  it('writes 320/640/960/1280 derivatives in WebP and the original format, never upscaled', async () => {
    const file = await writeImage('cover.jpg', 2000, 1000, 'jpeg');
    await prepareUploadedImage(file);
    expect(list()).toEqual([
      'cover-1280w.jpg',
      'cover-1280w.webp',
      'cover-320w.jpg',
      'cover-320w.webp',
      'cover-640w.jpg',
      'cover-640w.webp',
      'cover-960w.jpg',
      'cover-960w.webp',
      'cover.jpg',
    ]);
    const meta = await sharp(path.join(dirs.images, 'cover-640w.webp')).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([640, 320]);
    const jpg = await sharp(path.join(dirs.images, 'cover-1280w.jpg')).metadata();
    expect([jpg.format, jpg.width, jpg.height]).toEqual(['jpeg', 1280, 640]);

    const info = await imageInfo('/uploads/images/cover.jpg');
    expect(info).toEqual({
      src: '/uploads/images/cover.jpg',
      width: 2000,
      height: 1000,
      widths: [320, 640, 960, 1280],
      webpWidths: [320, 640, 960, 1280],
    });
  });

  it('skips sizes wider than the original and adds a WebP at the original width', async () => {
    const file = await writeImage('small.png', 500, 500, 'png');
    await prepareUploadedImage(file);
    expect(list().filter((f) => f.startsWith('small'))).toEqual([
      'small-320w.png',
      'small-320w.webp',
      'small-500w.webp',
      'small.png',
    ]);
    expect(await imageInfo('/uploads/images/small.png')).toMatchObject({
      width: 500,
      height: 500,
      widths: [320],
      webpWidths: [320, 500],
    });
  });

  it('treats WebP originals once (no duplicate files) and ignores non-images', async () => {
    const file = await writeImage('photo.webp', 700, 350, 'webp');
    await prepareUploadedImage(file);
    expect(list().filter((f) => f.startsWith('photo'))).toEqual([
      'photo-320w.webp',
      'photo-640w.webp',
      'photo.webp',
    ]);
    expect(await imageInfo('/uploads/images/photo.webp')).toMatchObject({ widths: [320, 640] });

    const bogus = path.join(dirs.images, 'broken.jpg');
    fs.writeFileSync(bogus, 'not an image');
    await expect(prepareUploadedImage(bogus)).resolves.toBeUndefined();
    expect(list().filter((f) => f.startsWith('broken'))).toEqual(['broken.jpg']);
    expect(await imageInfo('/uploads/images/broken.jpg')).toBeNull();
    expect(await imageInfo('/placeholder-album.jpg')).toBeNull();
    expect(await imageInfo('/uploads/images/missing.jpg')).toBeNull();
  });

  it('deleteUploadedFile removes the derivatives with the original, and imageInfo forgets it', async () => {
    const file = await writeImage('gone.jpg', 1400, 700, 'jpeg');
    await writeImage('gone-extra.jpg', 10, 10, 'jpeg'); // a different upload sharing a prefix
    await prepareUploadedImage(file);
    expect(await imageInfo('/uploads/images/gone.jpg')).not.toBeNull();
    expect(list().filter((f) => f.startsWith('gone-')).length).toBe(9);
    await deleteUploadedFile('/uploads/images/gone.jpg');
    expect(list().filter((f) => f.startsWith('gone'))).toEqual(['gone-extra.jpg']);
    expect(await imageInfo('/uploads/images/gone.jpg')).toBeNull();
  });

  it('is memoised per file and re-read when the file is replaced', async () => {
    const file = await writeImage('memo.jpg', 1000, 500, 'jpeg');
    await prepareUploadedImage(file);
    const url = '/uploads/images/memo.jpg';
    expect(await imageInfo(url)).toMatchObject({ width: 1000, widths: [320, 640, 960] });
    // A stray file the cache cannot know about (the original is untouched): the warm call
    // answers from memory, without listing the folder or reading the image again.
    fs.copyFileSync(
      path.join(dirs.images, 'memo-640w.jpg'),
      path.join(dirs.images, 'memo-900w.jpg'),
    );
    expect(await imageInfo(url)).toMatchObject({ width: 1000, widths: [320, 640, 960] });
    // A file replaced behind the site's back (new content, new mtime) is described afresh once
    // the revalidation window has passed (uploads always get new names, so only a restore or
    // a hand edit does this).
    await writeImage('memo.jpg', 1200, 1200, 'jpeg');
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(file, later, later);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + IMAGE_INFO_REVALIDATE_MS + 1);
    expect(await imageInfo(url)).toMatchObject({
      width: 1200,
      height: 1200,
      widths: [320, 640, 900, 960],
    });
    vi.useRealTimers();
    // Deleted through the site: forgotten at once, not after the window.
    await deleteUploadedFile(url);
    expect(await imageInfo(url)).toBeNull();
  });

  it('imageInfos maps several URLs, leaving out unknown ones', async () => {
    const infos = await imageInfos(['/uploads/images/cover.jpg', '/nope.jpg', null]);
    expect(Object.keys(infos)).toEqual(['/uploads/images/cover.jpg']);
  });
});

describe('ResponsiveImage', () => {
  it('builds derivative URLs and srcsets', () => {
    expect(derivativeUrl('/uploads/images/a.b.jpg', 640)).toBe('/uploads/images/a.b-640w.jpg');
    expect(derivativeUrl('/uploads/images/a.jpg?v=1', 320, '.webp')).toBe(
      '/uploads/images/a-320w.webp?v=1',
    );
    expect(
      buildSrcSets({ src: '/x.png', width: 500, widths: [320], webpWidths: [320, 500] }),
    ).toEqual({
      srcSet: '/x-320w.png 320w, /x.png 500w',
      webpSrcSet: '/x-320w.webp 320w, /x-500w.webp 500w',
    });
  });

  it('renders a picture with a WebP source, lazy by default', () => {
    const html = renderToStaticMarkup(
      createElement(ResponsiveImage, {
        src: '/uploads/images/cover.jpg',
        width: 2000,
        height: 1000,
        widths: [320, 640, 1280],
        webpWidths: [320, 640, 1280],
        sizes: '50vw',
        alt: 'Cover',
      }),
    );
    expect(html).toContain('<picture');
    expect(html).toContain(
      '<source type="image/webp" srcSet="/uploads/images/cover-320w.webp 320w, /uploads/images/cover-640w.webp 640w, /uploads/images/cover-1280w.webp 1280w" sizes="50vw"/>',
    );
    // The <img> is only the fallback: its src, no second list of sizes.
    expect(html).toContain('<img src="/uploads/images/cover.jpg" alt="Cover" width="2000"');
    expect(html.match(/srcSet=/g)).toHaveLength(1);
    expect(html).toContain('width="2000" height="1000"');
    expect(html).toContain('loading="lazy"');
    expect(html).toContain('decoding="async"');
    expect(html).not.toContain('fetchpriority');
  });

  it('priority images are eager with fetchpriority high; unknown images are plain', () => {
    const html = renderToStaticMarkup(
      createElement(ResponsiveImage, { src: '/hero.jpg', alt: '', priority: true }),
    );
    expect(html).toBe(
      '<img src="/hero.jpg" alt="" loading="eager" decoding="async" fetchpriority="high"/>',
    );
  });
});
