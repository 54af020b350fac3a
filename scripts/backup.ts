// `npm run backup [-- <target folder>]`: a consistent archive of the database and the uploads
// under backups/night-shore-<timestamp>/ (see scripts/backup-lib.ts for the format).
// Works on MONGODB_URI and on the embedded store, also while the site is running.
import path from 'node:path';

import { connectDb, disconnectDb } from '../app/platform/db.server';
import { uploadsDir } from '../app/platform/env.server';
import { createBackup, timestamp } from './backup-lib';

const target = process.argv[2] ?? path.join('backups', `night-shore-${timestamp()}`);

await connectDb();
try {
  const manifest = await createBackup({ target, uploadsDir: uploadsDir() });
  const docs = Object.entries(manifest.collections)
    .map(([name, c]) => `${name} ${c.count}`)
    .join(', ');
  console.log(`Backup written to ${path.resolve(target)}`);
  console.log(`  database ${manifest.database}: ${docs}`);
  console.log(
    `  uploads: ${manifest.uploads.files.length} files, ${(manifest.uploads.bytes / 1e6).toFixed(1)} MB`,
  );
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await disconnectDb();
}
