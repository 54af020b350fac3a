import type { Readable } from 'node:stream';

import { Lru } from '~/platform/lru.server';

import { mediaKeyFromUrl, mediaStore } from './media-store.server';
import sharp from './sharp.server';

/**
 * The 1200×630 picture of a link card (`og:image`, decision 038), made from a track's cover
 * with sharp: the cover blurred to fill the frame, the cover itself centred on it at 630 px.
 * Kept in a small per-process cache keyed by the cover's URL and modification time (a pure
 * cache of a stored file: another instance makes its own, a replaced cover has a new URL).
 */
export const LINK_CARD = { width: 1200, height: 630 } as const;
const cache = new Lru<string, Buffer>({ maxEntries: 32 });

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The JPEG of the card for this cover URL, or null when the cover is not a stored image. */
export async function linkCardImage(coverUrl: string): Promise<Buffer | null> {
  const key = mediaKeyFromUrl(coverUrl);
  if (!key) return null;
  const store = mediaStore();
  const stat = await store.stat(key);
  if (!stat) return null;
  const id = `${key}|${stat.mtimeMs}`;
  const cached = cache.get(id);
  if (cached) return cached;
  const cover = await readAll(await store.open(key));
  const { width, height } = LINK_CARD;
  const background = await sharp(cover)
    .rotate()
    .resize(width, height, { fit: 'cover' })
    .blur(40)
    .modulate({ brightness: 0.6 })
    .toBuffer();
  const front = await sharp(cover).rotate().resize(height, height, { fit: 'cover' }).toBuffer();
  const card = await sharp(background)
    .composite([{ input: front, left: Math.round((width - height) / 2), top: 0 }])
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
  cache.set(id, card);
  return card;
}
