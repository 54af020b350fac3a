/**
 * `npm run media:migrate -- --to gridfs` (or `--to disk`): copy every uploaded file from the
 * other media store into this one, each verified by SHA-256 (scripts/media-migrate-lib.ts).
 * Uses the site's environment (MONGODB_URI or the embedded store, UPLOADS_DIR), also while
 * the site runs. Then set MEDIA_STORAGE to the new store and restart the site.
 */
import path from 'node:path';

import { diskMediaStore, gridfsMediaStore } from '../app/files/media-store.server';
import { connectDb, disconnectDb } from '../app/platform/db.server';
import { uploadsDir } from '../app/platform/env.server';
import { migrateMedia } from './media-migrate-lib';

const at = process.argv.indexOf('--to');
const to = at === -1 ? undefined : process.argv[at + 1];
if (to !== 'gridfs' && to !== 'disk') {
  console.error('usage: npm run media:migrate -- --to gridfs|disk');
  process.exit(2);
}

await connectDb();
try {
  const disk = diskMediaStore();
  const gridfs = gridfsMediaStore();
  const report = await migrateMedia({
    from: to === 'gridfs' ? disk : gridfs,
    to: to === 'gridfs' ? gridfs : disk,
    stagingDir: path.join(uploadsDir()),
    log: (line) => console.log(line),
  });
  console.log(
    `Done: ${report.copied} copied (${(report.bytes / 1e6).toFixed(1)} MB), ${report.skipped} already there and identical. ` +
      `Now set MEDIA_STORAGE=${to} and restart the site; the ${to === 'gridfs' ? 'disk' : 'GridFS'} copies stay until you remove them.`,
  );
} catch (error) {
  console.error(`Migration stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await disconnectDb();
}
