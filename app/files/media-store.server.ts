import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

import { env } from '~/platform/env.server';
import { processCacheSizes } from '~/platform/memory.server';

import { diskMediaStore } from './disk-media-store.server';
import { ChunkCache, gridfsMediaStore } from './gridfs-media-store.server';

export { diskMediaStore, SMALL_READ } from './disk-media-store.server';
export { ChunkCache, GRIDFS_BUCKET, gridfsMediaStore } from './gridfs-media-store.server';
export { isMediaKey, mediaKeyFromUrl } from './media-keys';

/**
 * Where uploaded media live (decision 023): `MEDIA_STORAGE=disk` (default) keeps them as files
 * under UPLOADS_DIR; `gridfs` keeps them in MongoDB GridFS (bucket `media`: collections
 * `media.files` and `media.chunks`), so that every app instance on the database serves them.
 *
 * A file is named by its key, the part of its URL after `/uploads/` (`audio/<32 hex>.mp3`,
 * `images/<32 hex>-640w.webp`). Uploads are always received and checked on the local disk
 * first (UPLOADS_DIR is also the staging area); `put` then makes a finished local file the
 * stored one. Readers ask `stat` and `open`, never the disk directly.
 */
export type MediaStat = { size: number; mtimeMs: number };

export type MediaStore = {
  readonly kind: 'disk' | 'gridfs';
  /** Store the finished local file at `key` (a new key each upload: keys are never reused). */
  put(key: string, localPath: string): Promise<void>;
  /** Size and modification time, or null when there is no such file. */
  stat(key: string): Promise<MediaStat | null>;
  /** The bytes from `start` to `end` inclusive (the whole file without them). */
  open(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * The file opened once, for serving (`/uploads`, serve-uploads.server.ts): its stat, then its bytes, without
   * looking it up a second time. Null when there is no such file. `close` when not reading.
   */
  openFile(key: string): Promise<OpenedMedia | null>;
  /** Remove the file (and, on GridFS, its chunks); nothing when it is not there. */
  delete(key: string): Promise<void>;
  /** The keys that start with `prefix` (e.g. an image's derivatives). */
  list(prefix: string): Promise<string[]>;
  /** Every stored key with its modification time (the start-up sweep, the migration). */
  all(): Promise<{ key: string; mtimeMs: number; size: number }[]>;
};

export type OpenedMedia = {
  stat: MediaStat;
  /** The bytes from `start` to `end` inclusive; the file is closed once they are read. */
  read(range: { start: number; end: number }): Readable;
  /**
   * Disk only: a range of at most SMALL_READ bytes read into `into` (the file closed after);
   * the bytes read.
   */
  readSmall?(range: { start: number; end: number }, into: Buffer): Promise<Buffer>;
  close(): void;
};

export const sha256OfStream = async (stream: Readable): Promise<string> => {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

/**
 * Files that ship with the app (the player's fallback sound): every instance copies them into
 * its own UPLOADS_DIR at start (app/platform/startup.server.ts), and they are read from there
 * whatever MEDIA_STORAGE says. They are never deleted.
 */
export const SHIPPED_KEYS: ReadonlySet<string> = new Set(['audio/fallback.mp3']);

/** `store`, with the shipped files read from the local disk. */
function withShippedFiles(store: MediaStore, disk: MediaStore): MediaStore {
  return {
    ...store,
    stat: (key) => (SHIPPED_KEYS.has(key) ? disk.stat(key) : store.stat(key)),
    openFile: (key) => (SHIPPED_KEYS.has(key) ? disk.openFile(key) : store.openFile(key)),
    open: (key, range) => (SHIPPED_KEYS.has(key) ? disk.open(key, range) : store.open(key, range)),
  };
}

/**
 * This process's GridFS chunk cache (GRIDFS_CHUNK_CACHE_MB, else the cache budget: decision
 * 040; null when 0).
 */
let processChunkCache: ChunkCache | null | undefined;
function chunkCache(): ChunkCache | null {
  if (processChunkCache === undefined) {
    const bytes = processCacheSizes().gridfsChunkCacheBytes;
    processChunkCache = bytes > 0 ? new ChunkCache(bytes) : null;
  }
  return processChunkCache;
}

/** The store MEDIA_STORAGE chooses. */
export function mediaStore(): MediaStore {
  if (env.MEDIA_STORAGE === 'disk') return diskMediaStore();
  return withShippedFiles(gridfsMediaStore(undefined, chunkCache()), diskMediaStore());
}
