/**
 * `npm run check:lock`: fail when package-lock.json, or the lock of a tool in tools/<name>/,
 * lacks a package `npm ci` needs (decision 021). With `--registry`, also ask the registry for
 * every platform-specific package in package-lock.json (those with `os`/`cpu`): each must be
 * served, with the integrity the lock records, as `npm ci` on that platform will fetch it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

import { type Lockfile, lockProblems } from './check-lock-lib';

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as Lockfile;
const problems = lockProblems(lock);
// The tools scripts install on demand (scripts/tools.ts) are installed with `npm ci` too.
for (const tool of fs.readdirSync('tools')) {
  const file = `tools/${tool}/package-lock.json`;
  if (!fs.existsSync(file)) continue;
  const toolLock = JSON.parse(fs.readFileSync(file, 'utf8')) as Lockfile;
  problems.push(...lockProblems(toolLock).map((problem) => `${file}: ${problem}`));
}

if (process.argv.includes('--registry')) {
  const platformPackages = Object.entries(lock.packages).filter(
    ([path, entry]) => path.includes('node_modules/') && (entry.os || entry.cpu),
  );
  for (const [path, entry] of platformPackages) {
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    let served = '';
    try {
      served = execFileSync('npm', ['view', `${name}@${entry.version}`, 'dist.integrity'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      served = '';
    }
    if (!served) problems.push(`${name}@${entry.version}: not served by the registry`);
    else if (served !== entry.integrity)
      problems.push(`${name}@${entry.version}: integrity differs`);
  }
  console.log(`checked ${platformPackages.length} platform packages against the registry`);
}

if (problems.length > 0) {
  console.error(`package-lock.json: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  `package-lock.json: ${Object.keys(lock.packages).length} entries, complete; the tools' locks complete`,
);
