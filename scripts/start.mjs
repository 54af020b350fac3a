#!/usr/bin/env node
// `npm start`: build when the last complete build is missing or older than the sources (the one
// build, scripts/build.ts, as `npm run build`), then serve it with our server module
// (server/index.ts, compiled ahead to build/server.js) in production mode. Extra arguments are
// ignored.
//
// Memory (decision 040): the server runs as plain JavaScript (no tsx loader thread), with
// glibc's malloc limited to two arenas (MALLOC_ARENA_MAX=2, unless set): each thread that
// allocates (media jobs, libuv's pool, sharp) otherwise gets an arena of its own that keeps what
// it freed, about 200 MB of the idle server's memory.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

const build = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'scripts', 'build.ts'), '--if-stale'],
  { stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const child = spawn(
  process.execPath,
  [path.join(root, 'build', 'server.js'), path.join(root, 'build', 'index.js')],
  {
    stdio: 'inherit',
    env: { NODE_ENV: 'production', MALLOC_ARENA_MAX: '2', ...process.env },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
