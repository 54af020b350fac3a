import fs from 'node:fs/promises';
import path from 'node:path';

import { logger } from '~/platform/logger.server';
import { Lru } from '~/platform/lru.server';
import type { ImageInfo } from '~/types/image-info';
import { escapeRegExp } from '~/utils/regexp';

import { mediaKeyFromUrl, type MediaStore, mediaStore } from './media-store.server';
import sharp from './sharp.server';
import { onUploadedFileDeleted, uploadPathFromUrl } from './stored-files.server';

/**
 * Responsive derivatives of uploaded images. Beside `<base>.<ext>` we write
 * `<base>-<width>w.webp` and `<base>-<width>w.<ext>` for each of DERIVATIVE_WIDTHS narrower than
 * the original (never upscaled), plus a WebP at the original width when the original is narrower
 * than the largest size (so WebP browsers never fall back to a smaller picture).
 * `deleteUploadedFile` removes every `<base>-<digits>w.<ext>` sibling with the original.
 *
 * Pages read what exists with `imageInfo(url)` (intrinsic width/height + the widths on disk) and
 * pass it to `<ResponsiveImage>`.
 */
export const DERIVATIVE_WIDTHS = [320, 640, 960, 1280] as const;

const RASTER = new Set(['.jpg', '.jpeg', '.png', '.webp']);

/** Intrinsic size after EXIF orientation. */
async function intrinsicSize(
  input: string | Buffer,
): Promise<{ width: number; height: number } | null> {
  const meta = await sharp(input).metadata();
  if (!meta.width || !meta.height) return null;
  const rotated = (meta.orientation ?? 1) >= 5;
  return rotated
    ? { width: meta.height, height: meta.width }
    : { width: meta.width, height: meta.height };
}

function derivativeName(absolutePath: string, width: number, ext: string): string {
  const dir = path.dirname(absolutePath);
  const base = path.basename(absolutePath, path.extname(absolutePath));
  return path.join(dir, `${base}-${width}w${ext}`);
}

/** Write beside, then rename: a crash never leaves a half-written derivative in place. */
async function writeAtomically(target: string, data: Buffer): Promise<void> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.part`);
  await fs.writeFile(temp, data);
  await fs.rename(temp, target);
}

/**
 * Write the derivatives of one uploaded image. Files that are not JPEG/PNG/WebP, or that sharp
 * cannot read or decode (a truncated JPEG passes the magic-byte check but fails to resize), are
 * left as they are, with no derivatives: the original is still served. Never throws for the
 * image's content.
 */
export async function prepareUploadedImage(absolutePath: string): Promise<void> {
  const ext = path.extname(absolutePath).toLowerCase();
  if (!RASTER.has(ext)) return;
  let size: { width: number; height: number } | null;
  try {
    size = await intrinsicSize(absolutePath);
  } catch {
    return;
  }
  if (!size) return;
  const original = await fs.readFile(absolutePath);
  const widths = DERIVATIVE_WIDTHS.filter((w) => w < size.width);
  const largest = DERIVATIVE_WIDTHS[DERIVATIVE_WIDTHS.length - 1];
  const webpWidths: number[] = [...widths];
  if (ext !== '.webp' && size.width <= largest) webpWidths.push(size.width);

  const jobs: Promise<unknown>[] = [];
  for (const width of webpWidths) {
    jobs.push(
      sharp(original)
        .autoOrient()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 78, effort: 4 })
        .toBuffer()
        .then((data) => writeAtomically(derivativeName(absolutePath, width, '.webp'), data)),
    );
  }
  if (ext !== '.webp') {
    for (const width of widths) {
      const pipeline = sharp(original).autoOrient().resize({ width, withoutEnlargement: true });
      const out =
        ext === '.png'
          ? pipeline.png({ compressionLevel: 9, palette: false })
          : pipeline.jpeg({ quality: 80, mozjpeg: true, progressive: true });
      jobs.push(
        out
          .toBuffer()
          .then((data) => writeAtomically(derivativeName(absolutePath, width, ext), data)),
      );
    }
  }
  const results = await Promise.allSettled(jobs);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // All or nothing: a partial set would make srcset promise files that are not there.
    const names = [
      ...webpWidths.map((w) => derivativeName(absolutePath, w, '.webp')),
      ...(ext === '.webp' ? [] : widths.map((w) => derivativeName(absolutePath, w, ext))),
    ];
    await Promise.all(names.map((name) => fs.rm(name, { force: true })));
    const reason = failed.reason instanceof Error ? failed.reason.message : String(failed.reason);
    logger.warn({ file: path.basename(absolutePath), reason }, 'images: no derivatives');
  }
  generation += 1;
}

const cache = new Lru<string, { mtimeMs: number; checkedAt: number; info: ImageInfo | null }>({
  maxEntries: 2000,
});
/**
 * How long a cached description is trusted without looking at the file again. Uploads get
 * fresh random names and are deleted through `deleteUploadedFile` (which drops the entry at
 * once), so within this process an image's description never goes stale; the window only
 * bounds how long a file replaced behind the site's back (a restore) is described from memory.
 */
export const IMAGE_INFO_REVALIDATE_MS = 2_000;
/**
 * Bumped when derivatives have been written: a read that was listing the folder meanwhile (the
 * original's mtime is unchanged by its derivatives) is returned but not cached.
 */
let generation = 0;

onUploadedFileDeleted((url) => {
  generation += 1;
  cache.delete(url);
});

/**
 * The intrinsic size and the stored derivative widths for an `/uploads/...` image URL, or null
 * for other URLs and unreadable files (render a plain `<img>` then). Cached per URL: pages call
 * it on every request, so a warm call costs no I/O; after IMAGE_INFO_REVALIDATE_MS it costs one
 * `stat` of the store, and the image is read again only when its modification time changed.
 */
export async function imageInfo(url: string | null | undefined): Promise<ImageInfo | null> {
  const key = mediaKeyFromUrl(url);
  if (!url || !key) return null;
  const hit = cache.get(url);
  const now = Date.now();
  if (hit && now - hit.checkedAt < IMAGE_INFO_REVALIDATE_MS)
    return hit.info && { ...hit.info, src: url };
  const started = generation;
  const store = mediaStore();
  const stat = await store.stat(key).catch(() => null);
  if (!stat) {
    cache.delete(url);
    return null;
  }
  if (hit && hit.mtimeMs === stat.mtimeMs) {
    if (started === generation) hit.checkedAt = now;
    return hit.info && { ...hit.info, src: url };
  }
  const info = await readInfo(url, key, store);
  if (started !== generation) return info;
  cache.set(url, { mtimeMs: stat.mtimeMs, checkedAt: now, info });
  return info;
}

/** The image's bytes for sharp: its path on the disk store, its content from GridFS. */
async function imageInput(url: string, key: string, store: MediaStore): Promise<string | Buffer> {
  const local = uploadPathFromUrl(url);
  if (store.kind === 'disk' && local) return local;
  const chunks: Buffer[] = [];
  for await (const chunk of await store.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readInfo(url: string, key: string, store: MediaStore): Promise<ImageInfo | null> {
  let size: { width: number; height: number } | null;
  try {
    size = await intrinsicSize(await imageInput(url, key, store));
  } catch {
    return null;
  }
  if (!size) return null;
  const [folder, name] = key.split('/') as [string, string];
  const ext = path.extname(name);
  const base = path.basename(name, ext);
  const pattern = new RegExp(`^${escapeRegExp(base)}-(\\d+)w(\\.\\w+)$`);
  const widths: number[] = [];
  const webpWidths: number[] = [];
  for (const derivative of await store.list(`${folder}/${base}-`)) {
    const match = pattern.exec(derivative.slice(folder.length + 1));
    if (!match) continue;
    const width = Number(match[1]);
    const derivativeExt = match[2]!.toLowerCase();
    if (derivativeExt === '.webp') webpWidths.push(width);
    else if (derivativeExt === ext.toLowerCase()) widths.push(width);
  }
  // A WebP original: its WebP derivatives are its original-format ones too.
  if (ext.toLowerCase() === '.webp') widths.push(...webpWidths.filter((w) => w < size.width));
  const asc = (a: number, b: number) => a - b;
  return {
    src: url,
    width: size.width,
    height: size.height,
    widths: widths.sort(asc),
    webpWidths: webpWidths.sort(asc),
  };
}

/** `imageInfo` for several URLs at once, keyed by URL (missing ones are left out). */
export async function imageInfos(
  urls: (string | null | undefined)[],
): Promise<Record<string, ImageInfo>> {
  const unique = Array.from(new Set(urls.filter((u): u is string => Boolean(u))));
  const infos = await Promise.all(unique.map((u) => imageInfo(u)));
  const out: Record<string, ImageInfo> = {};
  unique.forEach((u, i) => {
    const info = infos[i];
    if (info) out[u] = info;
  });
  return out;
}
