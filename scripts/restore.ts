// `npm run restore -- <backup folder> --yes`: replace the database content and the uploads
// with a backup's (written by `npm run backup`). Without --yes it only says what it would do
// (and exits 1: nothing was restored).
// Works on MONGODB_URI and on the embedded store, also while the site is running.
import path from 'node:path';

import { restoreBackup, verifyBackup } from './backup-lib';
import { oneLine, runScript, ScriptFailure } from './run-script';

const args = process.argv.slice(2);
const source = args.find((a) => !a.startsWith('--'));

if (!source) {
  console.error('restore: which backup? usage: npm run restore -- <backup folder> --yes');
  process.exitCode = 1;
} else {
  let manifest: Awaited<ReturnType<typeof verifyBackup>> | null = null;
  try {
    manifest = await verifyBackup(source);
  } catch (error) {
    console.error(`Cannot restore: ${oneLine(error)}`);
    process.exitCode = 1;
  }
  if (manifest) {
    const summary = Object.entries(manifest.collections)
      .map(([name, c]) => `${name} ${c.count}`)
      .join(', ');
    const what = `${path.resolve(source)} (${manifest.createdAt}: ${summary}; ${manifest.uploads.files.length} upload files)`;
    const files = manifest.uploads.files.length;
    await runScript(
      'restore',
      async () => {
        const { uploadsDir } = await import('../app/platform/env.server');
        if (!args.includes('--yes')) {
          throw new ScriptFailure(
            `Nothing restored: this replaces ALL the content of the database and of ${uploadsDir()} ` +
              `with ${what}; run again with --yes to do it.`,
          );
        }
        await restoreBackup({ source, uploadsDir: uploadsDir() });
        return `Restored ${path.resolve(source)}: ${summary}; ${files} upload files.`;
      },
      // The refusal needs no database.
      { db: args.includes('--yes') },
    );
  }
}
