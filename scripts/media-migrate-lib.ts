import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { type MediaStore, sha256OfStream, SHIPPED_KEYS } from '~/files/media-store.server';

/**
 * Copy every media file from one store to the other (`npm run media:migrate`, decision 023).
 *
 * - Each file is copied whole, then read back from the target and compared with the source by
 *   SHA-256; a mismatch removes the copy and stops with an error.
 * - Safe to run twice: a file the target already has with the same SHA-256 is skipped (one
 *   with other content is replaced).
 * - Safe to interrupt: a copy becomes visible only once complete (the disk store renames a
 *   finished file into place; GridFS writes the file document after the last chunk, and the
 *   start-up sweep removes chunks left without one), so running it again finishes the job.
 * - The source is left as it is: switch MEDIA_STORAGE, check the site, then remove it.
 */
export type MigrationReport = { copied: number; skipped: number; bytes: number };

export async function migrateMedia(options: {
  from: MediaStore;
  to: MediaStore;
  /** A folder on the disk for the copies the target takes from a local file. */
  stagingDir: string;
  log?: (line: string) => void;
}): Promise<MigrationReport> {
  const { from, to, stagingDir } = options;
  const log = options.log ?? (() => undefined);
  const report: MigrationReport = { copied: 0, skipped: 0, bytes: 0 };
  const files = (await from.all()).filter((f) => !SHIPPED_KEYS.has(f.key));
  log(`${files.length} file(s) in the ${from.kind} store`);
  for (const file of files) {
    const sourceHash = await sha256OfStream(await from.open(file.key));
    const existing = await to.stat(file.key);
    if (existing && existing.size === file.size) {
      if ((await sha256OfStream(await to.open(file.key))) === sourceHash) {
        report.skipped += 1;
        continue;
      }
    }
    if (existing) await to.delete(file.key);
    const [folder, name] = file.key.split('/') as [string, string];
    const temp = path.join(stagingDir, folder, `.${name}.migrate.part`);
    await fs.mkdir(path.dirname(temp), { recursive: true });
    try {
      await pipeline(await from.open(file.key), createWriteStream(temp));
      await to.put(file.key, temp);
    } finally {
      await fs.rm(temp, { force: true });
    }
    const copiedHash = await sha256OfStream(await to.open(file.key));
    if (copiedHash !== sourceHash) {
      await to.delete(file.key);
      throw new Error(`${file.key}: the copy's SHA-256 differs from the original; copy removed`);
    }
    report.copied += 1;
    report.bytes += file.size;
    log(`copied ${file.key} (${file.size} bytes, sha256 ${sourceHash.slice(0, 12)}…)`);
  }
  return report;
}
