// `npm run restore -- <backup folder> --yes`: replace the database content and the uploads
// with a backup's (written by `npm run backup`). Without --yes it only says what it would do.
// Works on MONGODB_URI and on the embedded store, also while the site is running.
import path from 'node:path';

import { connectDb, disconnectDb } from '../app/platform/db.server';
import { uploadsDir } from '../app/platform/env.server';
import { restoreBackup, verifyBackup } from './backup-lib';

const args = process.argv.slice(2);
const source = args.find((a) => !a.startsWith('--'));
if (!source) {
  console.error('Usage: npm run restore -- <backup folder> --yes');
  process.exit(1);
}

let manifest;
try {
  manifest = await verifyBackup(source);
} catch (error) {
  console.error(`Cannot restore: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const summary = Object.entries(manifest.collections)
  .map(([name, c]) => `${name} ${c.count}`)
  .join(', ');
if (!args.includes('--yes')) {
  console.log(
    `This replaces ALL the content of the database and of ${uploadsDir()} with the backup`,
  );
  console.log(`${path.resolve(source)} (${manifest.createdAt}): ${summary};`);
  console.log(`${manifest.uploads.files.length} upload files.`);
  console.log('Run again with --yes to do it: npm run restore -- <folder> --yes');
  process.exit(1);
}

await connectDb();
try {
  await restoreBackup({ source, uploadsDir: uploadsDir() });
  console.log(
    `Restored ${path.resolve(source)}: ${summary}; ${manifest.uploads.files.length} upload files.`,
  );
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await disconnectDb();
}
