import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { removeStaleUploadParts } from './startup.server';

/** The start-up sweep of unfinished uploads, alone and beside other instances (decision 022). */
describe('removeStaleUploadParts', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function uploadsWithParts(ageMs: Record<string, number>, now: number): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-parts-'));
    dirs.push(root);
    for (const [name, age] of Object.entries(ageMs)) {
      const file = path.join(root, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'partial');
      const when = new Date(now - age);
      fs.utimesSync(file, when, when);
    }
    return root;
  }

  it('removes every .part file when nothing else can be uploading (grace 0)', async () => {
    const now = Date.now();
    const root = uploadsWithParts({ 'audio/.a.part': 1000, 'images/.b.part': 10 }, now);
    expect((await removeStaleUploadParts(root, 0, now)).sort()).toEqual([
      'audio/.a.part',
      'images/.b.part',
    ]);
    expect(fs.readdirSync(path.join(root, 'images'))).toEqual([]);
  });

  it('leaves the recent ones to the instance that may be writing them', async () => {
    const now = Date.now();
    const hour = 60 * 60 * 1000;
    const root = uploadsWithParts(
      {
        'audio/.old.part': 2 * hour,
        'images/.fresh-960w.jpg.part': 5_000,
        'images/keep.jpg': 3 * hour,
      },
      now,
    );
    expect(await removeStaleUploadParts(root, hour, now)).toEqual(['audio/.old.part']);
    expect(fs.readdirSync(path.join(root, 'images')).sort()).toEqual([
      '.fresh-960w.jpg.part',
      'keep.jpg',
    ]);
  });
});
