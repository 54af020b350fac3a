import { createHash } from 'node:crypto';
import { constants as fsConstants, createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import mongoose from 'mongoose';

import { env, uploadsDir } from '~/platform/env.server';
import { Lru } from '~/platform/lru.server';
import { processCacheSizes } from '~/platform/memory.server';
import { cachedRead } from '~/platform/read-cache.server';

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
   * The file opened once, for serving (`serveMediaDirect`): its stat, then its bytes, without
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

/** Reads of 256 KiB: one read for a typical player's Range request. */
export const SMALL_READ = 256 * 1024;

/** The bytes at `start`, then the handle closed. */
async function readOnce(
  handle: fs.FileHandle,
  start: number,
  length: number,
  buffer: Buffer,
): Promise<Buffer> {
  try {
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** A key as stored: `audio/…` or `images/…`, plain segments only. */
export function isMediaKey(key: string): boolean {
  const segments = key.split('/');
  return (
    segments.length === 2 &&
    (segments[0] === 'audio' || segments[0] === 'images') &&
    segments.every((s) => s !== '' && !s.startsWith('.') && !/[\\\0:]/.test(s) && !s.includes('/'))
  );
}

export const sha256OfStream = async (stream: Readable): Promise<string> => {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

/** Media folders checked to be inside their root (no symlink out), for a few seconds. */
const checkedFolders = new Map<string, number>();

/** Files under a folder (UPLOADS_DIR by default). */
export function diskMediaStore(root = uploadsDir()): MediaStore {
  const base = path.resolve(root);
  /** The file's path when it is a real file inside the root (no symlink out of it). */
  const resolve = async (key: string): Promise<{ file: string; stat: MediaStat } | null> => {
    if (!isMediaKey(key)) return null;
    const file = path.join(base, ...key.split('/'));
    try {
      const [realRoot, realFile] = await Promise.all([fs.realpath(base), fs.realpath(file)]);
      if (!realFile.startsWith(realRoot + path.sep)) return null;
      const stat = await fs.stat(realFile);
      if (!stat.isFile()) return null;
      return { file: realFile, stat: { size: stat.size, mtimeMs: stat.mtimeMs } };
    } catch {
      return null;
    }
  };
  const folderInside = async (folder: string): Promise<boolean> => {
    const checked = checkedFolders.get(path.join(base, folder));
    if (checked !== undefined && Date.now() - checked < 5_000) return true;
    try {
      const [realRoot, realFolder] = await Promise.all([
        fs.realpath(base),
        fs.realpath(path.join(base, folder)),
      ]);
      if (realFolder !== path.join(realRoot, folder)) return false;
      checkedFolders.set(path.join(base, folder), Date.now());
      return true;
    } catch {
      return false;
    }
  };
  return {
    kind: 'disk',
    async openFile(key) {
      if (!isMediaKey(key)) return null;
      const [folder, name] = key.split('/') as [string, string];
      if (!(await folderInside(folder))) return null;
      let handle: fs.FileHandle;
      try {
        // O_NOFOLLOW: a symlink planted in the folder is not a media file.
        handle = await fs.open(
          path.join(base, folder, name),
          fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW,
        );
      } catch {
        return null;
      }
      const stat = await handle.stat().catch(() => null);
      if (!stat?.isFile()) {
        void handle.close();
        return null;
      }
      return {
        stat: { size: stat.size, mtimeMs: stat.mtimeMs },
        read: (range) =>
          handle.createReadStream({ ...range, highWaterMark: SMALL_READ, autoClose: true }),
        // A player's Range request: one read into one buffer, sent whole (measured: faster
        // than a stream on the handle).
        readSmall: (range, into) =>
          readOnce(handle, range.start, range.end - range.start + 1, into),
        close: () => void handle.close().catch(() => undefined),
      };
    },
    async put(key, localPath) {
      if (!isMediaKey(key)) throw new Error(`Not a media key: ${key}`);
      const target = path.join(base, ...key.split('/'));
      if (path.resolve(localPath) === target) return;
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(localPath, target);
    },
    async stat(key) {
      return (await resolve(key))?.stat ?? null;
    },
    async open(key, range) {
      const found = await resolve(key);
      if (!found) throw new Error(`No media file ${key}`);
      return createReadStream(found.file, range);
    },
    async delete(key) {
      if (!isMediaKey(key)) return;
      await fs.rm(path.join(base, ...key.split('/')), { force: true });
    },
    async list(prefix) {
      const folder = prefix.split('/')[0] ?? '';
      const names = await fs.readdir(path.join(base, folder)).catch(() => [] as string[]);
      return names
        .map((name) => `${folder}/${name}`)
        .filter((key) => key.startsWith(prefix) && isMediaKey(key));
    },
    async all() {
      const out: { key: string; mtimeMs: number; size: number }[] = [];
      for (const folder of ['audio', 'images']) {
        for (const name of await fs.readdir(path.join(base, folder)).catch(() => [] as string[])) {
          const key = `${folder}/${name}`;
          if (!isMediaKey(key)) continue;
          const stat = await fs.stat(path.join(base, folder, name)).catch(() => null);
          if (stat?.isFile()) out.push({ key, mtimeMs: stat.mtimeMs, size: stat.size });
        }
      }
      return out;
    },
  };
}

export const GRIDFS_BUCKET = 'media';
/** 255 KiB, the drivers' default: a Range request reads only the chunks it covers. */
const CHUNK_SIZE = 255 * 1024;

type GridFile = {
  _id: mongoose.mongo.ObjectId;
  length: number;
  chunkSize: number;
  uploadDate: Date;
  filename: string;
};

type GridChunk = { files_id: mongoose.mongo.ObjectId; n: number; data: mongoose.mongo.Binary };

/**
 * GridFS chunks recently read, by file id and number, up to a byte bound (least recently used
 * go first): GridFS's page cache. A chunk never changes under its file's id (a key is written
 * once; a new upload is a new file), and a deleted file is never asked for again, because its
 * file document, looked up first on every request, is gone (the read cache follows writes on
 * every instance within its bound, decision 039); its chunks then age out.
 */
export class ChunkCache {
  private readonly entries: Lru<string, Buffer>;

  constructor(maxBytes: number) {
    this.entries = new Lru({
      maxEntries: Number.POSITIVE_INFINITY,
      maxSize: maxBytes,
      sizeOf: (data) => data.length,
    });
  }

  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  set(key: string, data: Buffer): void {
    if (!this.entries.has(key)) this.entries.set(key, data);
  }

  get size() {
    return { entries: this.entries.size, bytes: this.entries.totalSize };
  }
}

const chunkKey = (fileId: mongoose.mongo.ObjectId, n: number) => `${fileId.toHexString()}:${n}`;

/** The chunks first–last of a file, from the cache when it holds them all, else in one query. */
async function* fileChunks(
  chunks: mongoose.mongo.Collection<GridChunk>,
  cache: ChunkCache | null,
  fileId: mongoose.mongo.ObjectId,
  first: number,
  last: number,
): AsyncGenerator<{ n: number; data: Buffer }> {
  const cached: Buffer[] = [];
  for (let n = first; cache && n <= last; n++) {
    const hit = cache.get(chunkKey(fileId, n));
    if (!hit) break;
    cached.push(hit);
  }
  if (cached.length === last - first + 1) {
    for (const [i, data] of cached.entries()) yield { n: first + i, data };
    return;
  }
  const cursor = chunks
    .find({ files_id: fileId, n: { $gte: first, $lte: last } })
    .sort({ n: 1 })
    .batchSize(last - first + 1);
  for await (const chunk of cursor) {
    const view = chunk.data.buffer.subarray(0, chunk.data.length());
    const data = Buffer.from(view.buffer, view.byteOffset, view.length);
    cache?.set(chunkKey(fileId, chunk.n), data);
    yield { n: chunk.n, data };
  }
}

/**
 * The bytes `start`–`end` (inclusive) of a GridFS file, from exactly the chunks that hold them:
 * one query, no second look-up of the file document. (GridFSBucket's download stream looks the
 * file up again and asks for every chunk from the first on, stopping once it has enough: a
 * server fills a whole batch, megabytes, for a 256 KiB Range.)
 */
function readChunks(
  chunks: mongoose.mongo.Collection<GridChunk>,
  cache: ChunkCache | null,
  file: Pick<GridFile, '_id' | 'chunkSize' | 'length'>,
  range: { start: number; end: number },
): Readable {
  const size = file.chunkSize;
  const end = Math.min(range.end, file.length - 1);
  const first = Math.floor(range.start / size);
  const last = Math.floor(end / size);
  async function* bytes() {
    if (end < range.start) return;
    let next = first;
    for await (const chunk of fileChunks(chunks, cache, file._id, first, last)) {
      if (chunk.n !== next)
        throw new Error(`GridFS file ${String(file._id)}: chunk ${next} is missing`);
      const { data } = chunk;
      const from = chunk.n === first ? range.start - first * size : 0;
      const to = chunk.n === last ? end - last * size + 1 : data.length;
      if (to > data.length)
        throw new Error(`GridFS file ${String(file._id)}: chunk ${next} is short`);
      yield Buffer.from(data.buffer, data.byteOffset + from, to - from);
      next += 1;
    }
    if (next !== last + 1)
      throw new Error(`GridFS file ${String(file._id)}: chunk ${next} is missing`);
  }
  return Readable.from(bytes(), { objectMode: false });
}

/** Files in MongoDB GridFS, through the driver's GridFSBucket, on the connected database. */
export function gridfsMediaStore(
  db: () => mongoose.mongo.Db = () => {
    const handle = mongoose.connection.db;
    if (!handle) throw new Error('The database is not connected.');
    return handle;
  },
  cache: ChunkCache | null = null,
): MediaStore {
  const bucket = () =>
    new mongoose.mongo.GridFSBucket(db(), {
      bucketName: GRIDFS_BUCKET,
      chunkSizeBytes: CHUNK_SIZE,
    });
  const files = () => db().collection<GridFile>(`${GRIDFS_BUCKET}.files`);
  const chunks = () => db().collection<GridChunk>(`${GRIDFS_BUCKET}.chunks`);
  /** The newest complete file of that name (a name is written once; newest in case of a retry). */
  const find = (key: string) => files().findOne({ filename: key }, { sort: { uploadDate: -1 } });
  return {
    kind: 'gridfs',
    async openFile(key) {
      if (!isMediaKey(key)) return null;
      // Keys are never reused and every write to the bucket invalidates the read cache: the
      // file document is a cached read (decision 039), the chunks are read for each request.
      const file = await cachedRead(['media.files', 'find-file', key], () => find(key));
      if (!file) return null;
      return {
        stat: { size: file.length, mtimeMs: new Date(file.uploadDate).getTime() },
        read: (range) => readChunks(chunks(), cache, file, range),
        close: () => undefined,
      };
    },
    async put(key, localPath) {
      if (!isMediaKey(key)) throw new Error(`Not a media key: ${key}`);
      // The files document is written after the last chunk: a crash midway leaves chunks
      // without a file, which the start-up sweep removes (app/platform/startup.server.ts).
      await pipeline(createReadStream(localPath), bucket().openUploadStream(key));
    },
    async stat(key) {
      if (!isMediaKey(key)) return null;
      const file = await find(key);
      return file ? { size: file.length, mtimeMs: file.uploadDate.getTime() } : null;
    },
    async open(key, range) {
      const file = await find(key);
      if (!file) throw new Error(`No media file ${key}`);
      return readChunks(chunks(), cache, file, range ?? { start: 0, end: file.length - 1 });
    },
    async delete(key) {
      for (const file of await files()
        .find({ filename: key }, { projection: { _id: 1 } })
        .toArray()) {
        await bucket()
          .delete(file._id)
          .catch((error: unknown) => {
            // Deleted meanwhile by another instance: gone is what we wanted.
            if (!(error instanceof Error && /not found/i.test(error.message))) throw error;
          });
      }
    },
    async list(prefix) {
      const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const names = await files().distinct('filename', {
        filename: { $regex: `^${escaped}` },
      });
      return (names as string[]).filter(isMediaKey).sort();
    },
    async all() {
      const list = await files()
        .find({}, { projection: { filename: 1, uploadDate: 1, length: 1 } })
        .toArray();
      return list
        .filter((f) => isMediaKey(f.filename))
        .map((f) => ({ key: f.filename, mtimeMs: f.uploadDate.getTime(), size: f.length }));
    },
  };
}

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

/** The key of an `/uploads/...` URL (each segment decoded once), or null for any other URL. */
export function mediaKeyFromUrl(url: string | null | undefined): string | null {
  if (!url || !url.startsWith('/uploads/')) return null;
  try {
    const key = url
      .slice('/uploads/'.length)
      .split(/[?#]/)[0]!
      .split('/')
      .map(decodeURIComponent)
      .join('/');
    return isMediaKey(key) ? key : null;
  } catch {
    return null;
  }
}
