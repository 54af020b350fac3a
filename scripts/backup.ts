// `npm run backup [-- <target folder>]`: a consistent archive of the database and the uploads
// under backups/night-shore-<timestamp>/ (see scripts/backup-lib.ts for the format).
// Works on MONGODB_URI and on the embedded store, also while the site is running.
import path from 'node:path';

import { createBackup, timestamp } from './backup-lib';
import { runScript } from './run-script';

const target = process.argv[2] ?? path.join('backups', `night-shore-${timestamp()}`);

await runScript(
  'backup',
  async () => {
    const { uploadsDir } = await import('../app/platform/env.server');
    const manifest = await createBackup({ target, uploadsDir: uploadsDir() });
    const documents = Object.values(manifest.collections).reduce((n, c) => n + c.count, 0);
    const collections = Object.keys(manifest.collections).length;
    return (
      `Backup written to ${path.resolve(target)}: database ${manifest.database} ` +
      `(${documents} documents in ${collections} collections), ${manifest.uploads.files.length} ` +
      `upload files (${(manifest.uploads.bytes / 1e6).toFixed(1)} MB).`
    );
  },
  { db: true },
);
