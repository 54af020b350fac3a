#!/usr/bin/env node
// `npm start`: build the app when the build is missing, incomplete or older than the sources
// (scripts/build.ts), then serve it with our server module (server/index.ts, run through tsx) in production mode.
// Extra arguments are ignored.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

const buildFile = path.join(root, 'build', 'index.js');
// The one build (scripts/build.ts), the same that `npm run build`, the tests and the Dockerfile
// run; it does nothing when the last complete build is newer than every source.
const build = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'scripts', 'build.ts'), '--if-stale'],
  { stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'server', 'index.ts'), buildFile],
  {
    stdio: 'inherit',
    env: { NODE_ENV: 'production', ...process.env },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
