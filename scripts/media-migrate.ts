/**
 * `npm run media:migrate -- --to gridfs` (or `--to disk`): copy every uploaded file from the
 * other media store into this one, each verified by SHA-256 (scripts/media-migrate-lib.ts).
 * Uses the site's environment (MONGODB_URI or the embedded store, UPLOADS_DIR), also while
 * the site runs. Then set MEDIA_STORAGE to the new store and restart the site. `--verbose`
 * names each file copied (on standard error; the last line is the summary).
 */
import path from 'node:path';

import { migrateMedia } from './media-migrate-lib';
import { runScript } from './run-script';

const at = process.argv.indexOf('--to');
const to = at === -1 ? undefined : process.argv[at + 1];
const verbose = process.argv.includes('--verbose');

if (to !== 'gridfs' && to !== 'disk') {
  console.error('media:migrate: which store? usage: npm run media:migrate -- --to gridfs|disk');
  process.exitCode = 2;
} else {
  await runScript(
    'media:migrate',
    async () => {
      const { diskMediaStore, gridfsMediaStore } = await import('../app/files/media-store.server');
      const { uploadsDir } = await import('../app/platform/env.server');
      const disk = diskMediaStore();
      const gridfs = gridfsMediaStore();
      const report = await migrateMedia({
        from: to === 'gridfs' ? disk : gridfs,
        to: to === 'gridfs' ? gridfs : disk,
        stagingDir: path.join(uploadsDir()),
        log: verbose ? (line) => console.error(line) : undefined,
      });
      return (
        `Done: ${report.copied} copied (${(report.bytes / 1e6).toFixed(1)} MB), ${report.skipped} already there and identical. ` +
        `Now set MEDIA_STORAGE=${to} and restart the site; the ${to === 'gridfs' ? 'disk' : 'GridFS'} copies stay until you remove them.`
      );
    },
    { db: true },
  );
}
