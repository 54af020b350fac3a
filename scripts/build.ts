/**
 * The one build (`npm run build`, decision 042): every artefact the server needs, in order, then a stamp.
 *
 *   1. `remix build`: build/index.js (the server bundle) and public/build/ (the browser bundles);
 *      it empties public/build first.
 *   2. the embed's own script (scripts/build-embed.ts): public/build/embed/ and
 *      build/embed-manifest.json, which /embed/* and the oEmbed card read.
 *   3. the server compiled ahead (scripts/build-server.mjs, decision 040): build/server.js,
 *      build/media-thread.js and build/db.js, which `npm start` and the Docker image run.
 *   4. build/build-stamp.json, written last: a build that failed or was interrupted has no stamp
 *      and counts as missing.
 *
 * `npm start` (scripts/start.mjs), `npm run build` (the tests run it), the Dockerfile and the bench
 * and Lighthouse scripts (scripts/prod-server.ts) all come through here, so they serve the same
 * artefacts. `--if-stale` builds only when an artefact is missing or a source is newer than the
 * stamp.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** What the build reads: a change to any of these makes the last build stale. */
const SOURCES = [
  'app',
  'embedded-mongo',
  'scripts/demo',
  'scripts/build.ts',
  'scripts/build-embed.ts',
  'scripts/build-server.mjs',
  'server',
  'package.json',
  'package-lock.json',
  'remix.config.js',
  'tailwind.config.ts',
  'postcss.config.js',
  'tsconfig.json',
];

/** What the server needs from a build; each must exist for the build to count. */
const ARTEFACTS = [
  'build/index.js',
  'build/embed-manifest.json',
  'build/server.js',
  'build/media-thread.js',
  'build/db.js',
];

const STAMP = 'build/build-stamp.json';

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) {
    if (name === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

/** Why the last build cannot be served as it is, or null when it is current. */
export function staleReason(): string | null {
  const stamp = fs.statSync(path.join(root, STAMP), { throwIfNoEntry: false });
  if (!stamp) return 'no complete build yet';
  for (const artefact of ARTEFACTS) {
    if (!fs.existsSync(path.join(root, artefact))) return `${artefact} is missing`;
  }
  const manifest = JSON.parse(
    fs.readFileSync(path.join(root, 'build/embed-manifest.json'), 'utf8'),
  ) as { player?: string };
  if (!manifest.player || !fs.existsSync(path.join(root, 'public', manifest.player))) {
    return 'the embed script is missing';
  }
  const changed = SOURCES.find((source) => newestMtime(path.join(root, source)) > stamp.mtimeMs);
  return changed ? `${changed} changed since the last build` : null;
}

function run(label: string, args: string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`${label} failed (exit ${result.status ?? result.signal})`);
  }
}

/** Builds every artefact, then writes the stamp. Throws when a step fails. */
export function build(): void {
  fs.rmSync(path.join(root, STAMP), { force: true });
  run('remix build', [path.join(root, 'node_modules/@remix-run/dev/dist/cli.js'), 'build']);
  run('the embed build', ['--import', 'tsx', path.join(root, 'scripts/build-embed.ts')]);
  run('the server build', [path.join(root, 'scripts/build-server.mjs')]);
  fs.writeFileSync(
    path.join(root, STAMP),
    `${JSON.stringify({ builtAt: new Date().toISOString(), artefacts: ARTEFACTS })}\n`,
  );
}

/** Builds when the last build is missing, incomplete or older than a source. */
export function buildIfStale(options: { force?: boolean } = {}): void {
  const reason = options.force ? 'a build was asked for' : staleReason();
  if (!reason) return;
  console.log(`[night-shore] building (${reason})…`);
  build();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    if (process.argv.includes('--if-stale')) buildIfStale();
    else build();
  } catch (error) {
    console.error(`[night-shore] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
