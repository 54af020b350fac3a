import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import mongoose from 'mongoose';

import { Lru } from '~/platform/lru.server';
import { cachedRead } from '~/platform/read-cache.server';
import { escapeRegExp } from '~/utils/regexp';

import { isMediaKey } from './media-keys';
import type { MediaStore } from './media-store.server';

/**
 * The GridFS store of media (MEDIA_STORAGE=gridfs; decision 023): bucket `media` (collections
 * `media.files` and `media.chunks`) on the connected database, so that every app instance
 * serves the same files; Range requests read only the chunks they cover, recent chunks kept
 * in a bounded cache. Chosen by `mediaStore()` (media-store.server.ts).
 */

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
      const names = await files().distinct('filename', {
        filename: { $regex: `^${escapeRegExp(prefix)}` },
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
