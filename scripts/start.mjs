#!/usr/bin/env node
// `npm start`: build the app when the build is missing or older than the sources, then
// serve it with our server module (server/index.ts, compiled ahead to build/server.js by
// scripts/build-server.mjs) in production mode. Extra arguments are ignored.
//
// Memory (decision 040): the server runs as plain JavaScript (no tsx loader thread), with
// glibc's malloc limited to two arenas (MALLOC_ARENA_MAX=2, unless set): each thread that
// allocates (media jobs, libuv's pool, sharp) otherwise gets an arena of its own that keeps what
// it freed, about 200 MB of the idle server's memory.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

function newestMtime(entry) {
  let newest = 0;
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  for (const name of fs.readdirSync(entry))
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

const buildFile = path.join(root, 'build', 'index.js');
const built = fs.statSync(buildFile, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sources = Math.max(
  ...[
    'app',
    'embedded-mongo',
    'scripts/demo',
    'package.json',
    'remix.config.js',
    'tailwind.config.ts',
  ].map((p) => newestMtime(path.join(root, p))),
);
if (!built || sources > built) {
  console.log('[night-shore] building the app…');
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/@remix-run/dev/dist/cli.js'), 'build'],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const serverFile = path.join(root, 'build', 'server.js');
const serverBuilt = fs.statSync(serverFile, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (!serverBuilt || Math.max(sources, newestMtime(path.join(root, 'server'))) > serverBuilt) {
  // Imported only to build: esbuild is a development package.
  const { buildServer } = await import('./build-server.mjs');
  await buildServer({ root });
}

const child = spawn(process.execPath, [serverFile, buildFile], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', MALLOC_ARENA_MAX: '2', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
