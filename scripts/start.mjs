#!/usr/bin/env node
// `npm start`: build the app when the build is missing or older than the sources, then
// serve it with our server module (server/index.ts, run through tsx) in production mode.
// Extra arguments are ignored.
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
