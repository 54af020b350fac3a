/**
 * Builds the embed's script (app/embed/player.ts, decision 038) with esbuild, which Remix's
 * compiler already ships: minified, fingerprinted, into public/build/embed/ (served as
 * immutable like the site's bundles), and writes build/embed-manifest.json, which the embed
 * pages read for its URL. Run by `npm run build` after `remix build` (which empties
 * public/build first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { build } from 'esbuild';

const OUT_DIR = path.resolve('public/build/embed');
const BUDGET = 12 * 1024;

const result = await build({
  entryPoints: { player: 'app/embed/player.ts' },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  platform: 'browser',
  entryNames: '[name]-[hash]',
  outdir: OUT_DIR,
  tsconfig: 'tsconfig.json',
  metafile: true,
  legalComments: 'none',
});

const output = Object.keys(result.metafile.outputs).find((file) => file.endsWith('.js'));
if (!output) throw new Error('esbuild wrote no script');
const file = path.resolve(output);
const gzipped = gzipSync(fs.readFileSync(file)).length;
if (gzipped > BUDGET) {
  throw new Error(`the embed script is ${gzipped} bytes gzipped, over its ${BUDGET}-byte budget`);
}
const url = `/build/embed/${path.basename(file)}`;
fs.mkdirSync(path.resolve('build'), { recursive: true });
fs.writeFileSync(path.resolve('build/embed-manifest.json'), `${JSON.stringify({ player: url })}\n`);
process.stdout.write(`embed script ${url}: ${gzipped} bytes gzipped (budget ${BUDGET})\n`);
