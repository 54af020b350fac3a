import fs from 'node:fs/promises';
import path from 'node:path';
import { ensureTheme } from '~/models/theme.server';
import { connectDb } from './db.server';
import { env, uploadsDir } from './env.server';
import { seedIfEmpty } from './seed.server';

/** The player's fallback file, always present under UPLOADS_DIR/audio/. */
export async function ensureUploadFolders(): Promise<void> {
  const root = uploadsDir();
  await fs.mkdir(path.join(root, 'audio'), { recursive: true });
  await fs.mkdir(path.join(root, 'images'), { recursive: true });
  const target = path.join(root, 'audio', 'fallback.mp3');
  const source = path.resolve('uploads', 'audio', 'fallback.mp3');
  if (path.resolve(target) !== source) {
    await fs.copyFile(source, target, fs.constants.COPYFILE_EXCL).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

let started: Promise<void> | null = null;

/** Connect, make sure indexes, folders and the theme exist, and seed an empty database. */
export function startApp(): Promise<void> {
  started ??= (async () => {
    await connectDb();
    await ensureUploadFolders();
    if (env.SEED) {
      const result = await seedIfEmpty();
      if (result.seeded && env.LOG_LEVEL !== 'silent') console.log(`[night-shore] seeded demo content: ${result.summary}`);
    }
    await ensureTheme();
  })();
  return started;
}
