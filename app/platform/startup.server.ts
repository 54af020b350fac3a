import fs from 'node:fs/promises';
import path from 'node:path';

import mongoose from 'mongoose';

import { startFediverse, stopFediverse } from '~/fediverse/lifecycle.server';
import { sweepGridfsMedia } from '~/files/gridfs-sweep.server';
import { SHIPPED_KEYS } from '~/files/media-store.server';
import {
  startResumableUploadSweep,
  stopResumableUploadSweep,
} from '~/files/resumable-upload-store.server';
import { outboxDir } from '~/mail/transport.server';
import { startMailWorker, stopMailWorker } from '~/mail/worker.server';
import { startMediaWorker, stopMediaWorker } from '~/media/worker.server';
import { migrateShowStartMinutes } from '~/models/show.server';
import { migrateSubscriberStatuses } from '~/models/subscriber.server';
import { ensureTheme } from '~/models/theme.server';
import { requeueWaitingTracks } from '~/models/track-audio.server';
import { migrateTrackGuids } from '~/models/track-podcast.server';
import { migrateTrackTypes } from '~/models/track-writes.server';
import { migrateUnconfirmedEmails } from '~/models/user.server';

import { connectDb, disconnectDb, ownsEmbeddedStore } from './db.server';
import { env, uploadsDir } from './env.server';
import { logger } from './logger.server';
import { requestsInFlight, waitForIdle } from './request-tracking.server';
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
 * How long a start-up sweep leaves recent upload files alone. Zero when this process has just
 * started the embedded store it uses: nothing else can have been uploading. Otherwise (an
 * external MONGODB_URI, or a store another process runs, as for WEB_CONCURRENCY workers) other
 * instances may be writing into the same UPLOADS_DIR right now (decision 022).
 */
export const sharedUploadsGraceMs = () => (ownsEmbeddedStore() ? 0 : 60 * 60 * 1000);

/**
 * Uploads are streamed to `.<name>.part` files and renamed into place when complete; a
 * crash mid-upload leaves the `.part` behind. None of this process can be in progress before
 * it starts, so every one older than `graceMs` (another instance's may be) is garbage.
 */
export async function removeStaleUploadParts(
  root = uploadsDir(),
  graceMs = sharedUploadsGraceMs(),
  now = Date.now(),
): Promise<string[]> {
  const removed: string[] = [];
  for (const sub of ['audio', 'images']) {
    const dir = path.join(root, sub);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.part')) continue;
      if (graceMs > 0) {
        const stat = await fs.stat(path.join(dir, name)).catch(() => null);
        if (!stat || now - stat.mtimeMs < graceMs) continue;
      }
      await fs.rm(path.join(dir, name), { force: true });
      removed.push(`${sub}/${name}`);
    }
  }
  if (removed.length > 0) {
    logger.info({ files: removed }, `removed ${removed.length} unfinished upload(s)`);
  }
  return removed;
}

/** Where unreferenced upload files are moved at start (dot folder: never served). */
export const ORPHANS_FOLDER = '.orphans';
const ORPHAN_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** Every `/uploads/...` URL the content references (tracks, gallery, blog). */
async function referencedUploads(): Promise<Set<string>> {
  const db = mongoose.connection.db;
  const urls = new Set<string>();
  if (!db) return urls;
  const sources: [string, string[]][] = [
    ['tracks', ['coverImage', 'audioFile', 'originalAudioFile']],
    ['gallery_images', ['imageUrl']],
    ['blog_posts', ['imageUrl']],
  ];
  for (const [collection, fields] of sources) {
    const projection = Object.fromEntries(fields.map((f) => [f, 1]));
    for (const doc of await db.collection(collection).find({}, { projection }).toArray()) {
      for (const f of fields) if (typeof doc[f] === 'string') urls.add(doc[f] as string);
    }
  }
  return urls;
}

/**
 * A crash between "file renamed into place" and "document written" leaves an upload no
 * content refers to. At start, files under audio/ and images/ that no track, gallery
 * image or blog post references (derivatives `<base>-<w>w.<ext>` follow their original)
 * are moved to UPLOADS_DIR/.orphans/ (not served; emptied after 7 days) rather than
 * deleted, in case a document is restored later. Files younger than `graceMs` are left
 * alone (another instance on the same database may be uploading them right now).
 */
export async function quarantineOrphanUploads(
  root = uploadsDir(),
  graceMs = sharedUploadsGraceMs(),
  now = Date.now(),
): Promise<string[]> {
  const referenced = await referencedUploads();
  const moved: string[] = [];
  const quarantine = path.join(root, ORPHANS_FOLDER);
  for (const sub of ['audio', 'images']) {
    const dir = path.join(root, sub);
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      if (name.startsWith('.') || (sub === 'audio' && name === 'fallback.mp3')) continue;
      const url = `/uploads/${sub}/${name}`;
      const original = name.replace(/-\d+w(\.\w+)$/, '');
      const isDerivative = original !== name;
      const referencedHere =
        referenced.has(url) ||
        (isDerivative && [...referenced].some((u) => u.startsWith(`/uploads/${sub}/${original}.`)));
      if (referencedHere) continue;
      const full = path.join(dir, name);
      const stat = await fs.stat(full).catch(() => null);
      if (!stat?.isFile() || now - stat.mtimeMs < graceMs) continue;
      await fs.mkdir(path.join(quarantine, sub), { recursive: true });
      await fs.rename(full, path.join(quarantine, sub, name));
      moved.push(`${sub}/${name}`);
    }
    for (const name of await fs.readdir(path.join(quarantine, sub)).catch(() => [] as string[])) {
      const full = path.join(quarantine, sub, name);
      const stat = await fs.stat(full).catch(() => null);
      if (stat && now - stat.mtimeMs > ORPHAN_KEEP_MS) await fs.rm(full, { force: true });
    }
  }
  if (moved.length > 0) {
    logger.info(
      { files: moved },
      `moved ${moved.length} unreferenced upload(s) to ${ORPHANS_FOLDER}/`,
    );
  }
  return moved;
}

/**
 * The start-up sweeps of the media store: on disk, unreferenced uploads to `.orphans/`; on
 * GridFS, chunks of cut-short uploads, unreferenced files, and the local staging copies a
 * crash left in UPLOADS_DIR (decision 023).
 */
async function sweepMedia(graceMs = sharedUploadsGraceMs(), now = Date.now()): Promise<void> {
  if (env.MEDIA_STORAGE === 'disk') {
    await quarantineOrphanUploads(uploadsDir(), graceMs, now);
    return;
  }
  const result = await sweepGridfsMedia(await referencedUploads(), graceMs, now);
  const staged = await removeStagingLeftovers(uploadsDir(), graceMs, now);
  if (result.orphanChunks || result.quarantined.length || staged) {
    logger.info(
      `media sweep: ${result.orphanChunks} chunk(s) of unfinished uploads removed, ` +
        `${result.quarantined.length} unreferenced file(s) moved to .orphans/, ` +
        `${staged} local staging file(s) removed`,
    );
  }
}

/** GridFS: files left in the local staging folders (a crash before they were released). */
async function removeStagingLeftovers(root: string, graceMs: number, now: number) {
  let removed = 0;
  for (const sub of ['audio', 'images']) {
    for (const name of await fs.readdir(path.join(root, sub)).catch(() => [] as string[])) {
      if (name.startsWith('.') || SHIPPED_KEYS.has(`${sub}/${name}`)) continue;
      const full = path.join(root, sub, name);
      const stat = await fs.stat(full).catch(() => null);
      if (!stat?.isFile() || now - stat.mtimeMs < graceMs) continue;
      await fs.rm(full, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/**
 * Graceful stop, called by the HTTP server (server/index.ts) on SIGTERM/SIGINT once it has
 * stopped accepting connections: waits (up to SHUTDOWN_TIMEOUT_MS) for the requests in
 * flight to finish, then closes mongoose and the embedded store (flushing its journal).
 * Resolves with the exit code for the process.
 */
export async function stopApp(
  signal: string,
  /** Work that must reach the database before it closes (the buffered statistics). */
  beforeClose: () => Promise<void> = async () => undefined,
): Promise<number> {
  const log = (msg: string) => logger.info(msg);
  log(`${signal}: finishing ${requestsInFlight()} request(s) in flight`);
  const idle = await waitForIdle(env.SHUTDOWN_TIMEOUT_MS);
  if (!idle)
    log(`gave up waiting after ${env.SHUTDOWN_TIMEOUT_MS} ms (${requestsInFlight()} left)`);
  await beforeClose().catch((error: unknown) => {
    logger.error({ err: error }, 'error while writing the last statistics');
  });
  stopResumableUploadSweep();
  try {
    // Messages in flight finish; the rest stay queued for the next start or another instance.
    await stopMailWorker();
  } catch (error) {
    logger.error({ err: error }, 'error while stopping the mail worker');
  }
  try {
    // Jobs in flight are given back (due at once) for the next start or another instance.
    await stopMediaWorker();
  } catch (error) {
    logger.error({ err: error }, 'error while stopping the media worker');
  }
  try {
    // Deliveries in flight finish; the rest stay queued (decision 053).
    await stopFediverse();
  } catch (error) {
    logger.error({ err: error }, 'error while stopping the fediverse queue');
  }
  try {
    await disconnectDb();
    log('database closed; bye');
    return 0;
  } catch (error) {
    logger.error({ err: error }, 'error while closing the database');
    return 1;
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
      if (result.seeded) logger.info(`seeded demo content: ${result.summary}`);
    }
    await ensureTheme();
    await migrateSubscriberStatuses();
    // Every show has its door time as a sort key (issue 37: one day's shows in order).
    await migrateShowStartMinutes();
    // Every stored release type is one of TRACK_TYPES (Remix → Single, Live → Live set).
    await migrateTrackTypes();
    // Every track has its podcast GUID, kept where it may have been published (decision 037).
    await migrateTrackGuids();
    // Addresses saved before they had to be confirmed wait for their link (decision 030).
    await migrateUnconfirmedEmails();
    const worker = startMailWorker();
    logger.info(
      worker.transport.kind === 'smtp'
        ? `email: ${worker.transport.description}`
        : `email: no SMTP_URL, so messages are written to ${outboxDir()} (nothing is sent)`,
    );
    await sweepMedia().catch((error: unknown) => {
      logger.error({ err: error }, 'orphan upload sweep failed');
    });
    // After the sweep: a stream a crash left unreferenced was moved aside, and its job redoes it.
    await requeueWaitingTracks();
    startMediaWorker();
    // Abandoned resumable uploads (24 h without a byte), now and every hour (decision 036).
    startResumableUploadSweep();
    // Fediverse deliveries and incoming activities, and the publishing sweep (decision 053).
    startFediverse();
  })();
  return started;
}
