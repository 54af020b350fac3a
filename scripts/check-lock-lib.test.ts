import fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { type Lockfile, lockProblems } from './check-lock-lib';

const read = () => JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as Lockfile;

describe('package-lock.json (decision 021)', () => {
  it('locks every dependency and optional dependency of every package, with integrity', () => {
    expect(lockProblems(read())).toEqual([]);
  });

  it("lists all of rollup's platform packages, not only this machine's", () => {
    const lock = read();
    const declared = Object.keys(lock.packages['node_modules/rollup']?.optionalDependencies ?? {});
    expect(declared.length).toBeGreaterThan(20);
    for (const name of declared.filter((n) => n !== 'fsevents')) {
      expect(lock.packages[`node_modules/${name}`], name).toBeDefined();
    }
  });

  it('reports a missing optional package and an entry without integrity', () => {
    const lock = read();
    const version = lock.packages['node_modules/rollup']?.version;
    delete lock.packages['node_modules/@rollup/rollup-darwin-arm64'];
    delete lock.packages['node_modules/@rollup/rollup-win32-x64-msvc']!.integrity;
    expect(lockProblems(lock)).toEqual([
      `node_modules/@rollup/rollup-win32-x64-msvc@${version}: no integrity`,
      'node_modules/rollup: optional dependency @rollup/rollup-darwin-arm64 is not in the lock',
    ]);
  });
});

describe('the locks of tools/ (installed on demand by scripts/tools.ts with `npm ci`)', () => {
  const tools = fs
    .readdirSync('tools')
    .filter((name) => fs.existsSync(`tools/${name}/package-lock.json`));

  it('exist for every tool', () => {
    expect(tools).toEqual(expect.arrayContaining(['font-metrics', 'icons', 'lighthouse']));
  });

  it.each(tools)('%s: every dependency locked, with integrity', (tool) => {
    const lock = JSON.parse(fs.readFileSync(`tools/${tool}/package-lock.json`, 'utf8')) as Lockfile;
    expect(lockProblems(lock)).toEqual([]);
  });
});
