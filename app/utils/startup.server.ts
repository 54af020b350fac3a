import fs from 'node:fs/promises';
import path from 'node:path';
import { ensureTheme } from '~/models/theme.server';
import { connectDb, disconnectDb } from './db.server';
import { env, uploadsDir } from './env.server';
import { requestsInFlight, waitForIdle } from './request-tracker.server';
import { seedIfEmpty } from './seed.server';

/** The player's fallback file, always present under UPLOADS_DIR/audio/. */
export async function ensureUploadFolders(): Promise<void> {
  const root = uploadsDir();
  await fs.mkdir(path.join(root, 'audio'), { recursive: true });
  await fs.mkdir(path.join(root, 'images'), { recursive: true });
  await removeStaleUploadParts(root);
  const target = path.join(root, 'audio', 'fallback.mp3');
  const source = path.resolve('uploads', 'audio', 'fallback.mp3');
  if (path.resolve(target) !== source) {
    await fs
      .copyFile(source, target, fs.constants.COPYFILE_EXCL)
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
  }
}

/**
 * Uploads are streamed to `.<name>.part` files and renamed into place when complete; a
 * crash mid-upload leaves the `.part` behind. None can be in progress before the server
 * starts, so every one found then is garbage.
 */
export async function removeStaleUploadParts(root = uploadsDir()): Promise<string[]> {
  const removed: string[] = [];
  for (const sub of ['audio', 'images']) {
    const dir = path.join(root, sub);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.part')) continue;
      await fs.rm(path.join(dir, name), { force: true });
      removed.push(`${sub}/${name}`);
    }
  }
  if (removed.length > 0 && env.LOG_LEVEL !== 'silent') {
    console.log(
      `[night-shore] removed ${removed.length} unfinished upload(s): ${removed.join(', ')}`,
    );
  }
  return removed;
}

let shutdownInstalled = false;

/**
 * Graceful shutdown on SIGTERM/SIGINT. remix-serve's own handler stops the HTTP server
 * from accepting connections; this one waits (up to SHUTDOWN_TIMEOUT_MS) for the requests
 * in flight to finish, then closes mongoose and the embedded store (flushing its journal)
 * and exits. A second signal exits at once.
 */
export function installGracefulShutdown(): void {
  if (shutdownInstalled) return;
  shutdownInstalled = true;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    const log = (msg: string) => {
      if (env.LOG_LEVEL !== 'silent') console.log(`[night-shore] ${msg}`);
    };
    log(`${signal}: finishing ${requestsInFlight()} request(s) in flight`);
    void (async () => {
      const idle = await waitForIdle(env.SHUTDOWN_TIMEOUT_MS);
      if (!idle)
        log(`gave up waiting after ${env.SHUTDOWN_TIMEOUT_MS} ms (${requestsInFlight()} left)`);
      try {
        await disconnectDb();
        log('database closed; bye');
        process.exit(0);
      } catch (error) {
        console.error('[night-shore] error while closing the database', error);
        process.exit(1);
      }
    })();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

let started: Promise<void> | null = null;

/** Connect, make sure indexes, folders and the theme exist, and seed an empty database. */
export function startApp(): Promise<void> {
  started ??= (async () => {
    await connectDb();
    await ensureUploadFolders();
    if (env.SEED) {
      const result = await seedIfEmpty();
      if (result.seeded && env.LOG_LEVEL !== 'silent')
        console.log(`[night-shore] seeded demo content: ${result.summary}`);
    }
    await ensureTheme();
  })();
  return started;
}
