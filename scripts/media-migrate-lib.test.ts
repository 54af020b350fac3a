import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { setupTestDatabase } from '../tests/helpers/test-db';

/** npm run media:migrate, both ways, on the embedded store. */
const { uploadsDir } = setupTestDatabase();
const { diskMediaStore, gridfsMediaStore, sha256OfStream } =
  await import('~/files/media-store.server');
const { migrateMedia } = await import('./media-migrate-lib');

const hashOf = async (store: ReturnType<typeof diskMediaStore>, key: string) =>
  sha256OfStream(await store.open(key));

describe('media:migrate', () => {
  it('copies every file to GridFS verified, skips them the second time, and copies back to an empty disk', async () => {
    const disk = diskMediaStore(uploadsDir);
    const gridfs = gridfsMediaStore();
    const contents: Record<string, Buffer> = {
      'audio/a.mp3': crypto.randomBytes(700 * 1024),
      'images/b.jpg': crypto.randomBytes(3000),
      'images/b-320w.webp': crypto.randomBytes(1000),
    };
    for (const [key, bytes] of Object.entries(contents)) {
      fs.writeFileSync(path.join(uploadsDir, ...key.split('/')), bytes);
    }
    fs.writeFileSync(path.join(uploadsDir, 'audio', 'fallback.mp3'), 'shipped, not migrated');

    const first = await migrateMedia({ from: disk, to: gridfs, stagingDir: uploadsDir });
    expect(first).toEqual({ copied: 3, skipped: 0, bytes: 700 * 1024 + 4000 });
    for (const [key, bytes] of Object.entries(contents)) {
      expect(await hashOf(gridfs, key)).toBe(
        crypto.createHash('sha256').update(bytes).digest('hex'),
      );
    }
    expect(await gridfs.stat('audio/fallback.mp3')).toBeNull();

    // Twice: nothing to copy. After an interruption (one file missing): only that one.
    expect(await migrateMedia({ from: disk, to: gridfs, stagingDir: uploadsDir })).toMatchObject({
      copied: 0,
      skipped: 3,
    });
    await gridfs.delete('images/b.jpg');
    expect(await migrateMedia({ from: disk, to: gridfs, stagingDir: uploadsDir })).toMatchObject({
      copied: 1,
      skipped: 2,
    });

    const emptyDisk = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-migrate-'));
    try {
      const back = diskMediaStore(emptyDisk);
      expect(await migrateMedia({ from: gridfs, to: back, stagingDir: emptyDisk })).toMatchObject({
        copied: 3,
      });
      for (const [key, bytes] of Object.entries(contents)) {
        expect(fs.readFileSync(path.join(emptyDisk, ...key.split('/'))).equals(bytes)).toBe(true);
      }
      // No staging leftovers.
      expect(fs.readdirSync(path.join(emptyDisk, 'audio'))).toEqual(['a.mp3']);
    } finally {
      fs.rmSync(emptyDisk, { recursive: true, force: true });
    }
  });
});
