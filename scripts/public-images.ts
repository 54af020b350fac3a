// `npx tsx scripts/public-images.ts`: responsive derivatives (320/640/960/1280 wide, WebP + JPEG)
// of the committed images in public/ (hero, about photos, placeholder), written beside them as
// <base>-<width>w.<ext> — the same sizes uploads get (app/files/image-derivatives.server.ts).
// The outputs are committed; run this again after replacing one of those images.
import fs from 'node:fs';
import path from 'node:path';

import sharp from 'sharp';

import { prepareUploadedImage } from '../app/files/image-derivatives.server';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'public');
const IMAGES = [
  'hero.jpg',
  'placeholder-album.jpg',
  'images/about/boardwalk-crew.jpg',
  'images/about/on-stage.jpg',
  'images/about/studio-night.jpg',
];

for (const name of IMAGES) {
  const file = path.join(root, name);
  if (!fs.existsSync(file)) continue;
  await prepareUploadedImage(file);
  const meta = await sharp(file).metadata();
  const base = path.basename(name, path.extname(name));
  const written = fs
    .readdirSync(path.dirname(file))
    .filter((f) => f.startsWith(`${base}-`) && /-\d+w\.\w+$/.test(f))
    .sort();
  console.log(`${name} (${meta.width}×${meta.height}): ${written.join(', ')}`);
}
