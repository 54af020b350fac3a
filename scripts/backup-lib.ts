import crypto from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import mongoose from 'mongoose';

import {
  GRIDFS_BUCKET,
  gridfsMediaStore,
  isMediaKey,
  sha256OfStream,
} from '~/files/media-store.server';

/**
 * Backups of the database and the uploads folder (npm run backup / npm run restore).
 *
 * An archive is a folder:
 *   manifest.json                  what is inside, with counts and SHA-256 of every file
 *   db/<collection>.json           one document per line, canonical Extended JSON
 *                                  (the format of `mongoexport`/`mongoimport`)
 *   db/<collection>.metadata.json  `{ collectionName, indexes }` like mongodump's metadata
 *   uploads/…                      a copy of UPLOADS_DIR (unfinished `.part` files excluded)
 *   media/<key>                    the media files in GridFS (MEDIA_STORAGE=gridfs, decision
 *                                  023), one file each, streamed; the bucket's collections
 *                                  are not dumped as documents
 *
 * Consistency: neither the embedded store nor a lone mongod offers a cross-collection
 * snapshot without a replica set, so each collection is read between two counts and read
 * again if they differ (a write landed meanwhile); the archive is written to a temporary
 * folder and renamed into place only once complete and verified.
 */

const { EJSON } = mongoose.mongo.BSON;
type Document = mongoose.mongo.Document;

export const BACKUP_FORMAT = 'night-shore-backup';
export const BACKUP_VERSION = 1;

export type CollectionEntry = { count: number; file: string; sha256: string; metadata: string };
export type UploadEntry = { path: string; bytes: number; sha256: string };
export type Manifest = {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: string;
  collections: Record<string, CollectionEntry>;
  uploads: { files: UploadEntry[]; bytes: number };
  /** Files of the GridFS media bucket (absent in archives made before it existed). */
  media?: { files: UploadEntry[]; bytes: number };
};

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');

function db(): mongoose.mongo.Db {
  const handle = mongoose.connection.db;
  if (!handle) throw new Error('The database is not connected (call connectDb() first).');
  return handle;
}

/**
 * Neither dumped as documents nor emptied by a restore: transient state, and the GridFS media
 * bucket, whose files are archived one by one under media/.
 */
const EXCLUDED = new Set(['rate_limits', `${GRIDFS_BUCKET}.files`, `${GRIDFS_BUCKET}.chunks`]);

async function userCollections(): Promise<string[]> {
  const list = await db().listCollections({}, { nameOnly: true }).toArray();
  return list
    .map((c) => c.name)
    .filter((name) => !name.startsWith('system.') && !EXCLUDED.has(name))
    .sort();
}

/** Read a whole collection between two equal counts (retried when a write raced the read). */
async function readStable(name: string): Promise<Document[]> {
  const collection = db().collection(name);
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await collection.countDocuments();
    const docs = await collection.find({}).sort({ _id: 1 }).toArray();
    const after = await collection.countDocuments();
    if (before === after && docs.length === after) return docs;
  }
  throw new Error(
    `Collection ${name} kept changing during the backup; try again in a quieter moment.`,
  );
}

async function listFiles(root: string, base = root): Promise<string[]> {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full, base)));
    else if (entry.isFile() && !entry.name.endsWith('.part')) out.push(path.relative(base, full));
  }
  return out.sort();
}

export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** Write an archive of the connected database and `uploadsDir` to `target` (must not exist). */
export async function createBackup(options: {
  target: string;
  uploadsDir: string;
}): Promise<Manifest> {
  const target = path.resolve(options.target);
  if (await fs.stat(target).catch(() => null)) throw new Error(`${target} already exists.`);
  const temp = `${target}.partial`;
  await fs.rm(temp, { recursive: true, force: true });
  await fs.mkdir(path.join(temp, 'db'), { recursive: true });

  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    database: db().databaseName,
    collections: {},
    uploads: { files: [], bytes: 0 },
  };
  try {
    for (const name of await userCollections()) {
      const docs = await readStable(name);
      const text =
        docs.map((d) => EJSON.stringify(d, { relaxed: false })).join('\n') +
        (docs.length ? '\n' : '');
      const indexes = await db().collection(name).listIndexes().toArray();
      const metadata = JSON.stringify(
        { collectionName: name, indexes: EJSON.serialize(indexes) },
        null,
        2,
      );
      const file = `db/${name}.json`;
      const metaFile = `db/${name}.metadata.json`;
      await fs.writeFile(path.join(temp, file), text);
      await fs.writeFile(path.join(temp, metaFile), metadata);
      manifest.collections[name] = {
        count: docs.length,
        file,
        sha256: sha256(text),
        metadata: metaFile,
      };
    }

    const uploadsRoot = path.resolve(options.uploadsDir);
    for (const rel of await listFiles(uploadsRoot)) {
      const data = await fs
        .readFile(path.join(uploadsRoot, rel))
        .catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return null; // deleted while we copied: not part of the archive
          throw e;
        });
      if (!data) continue;
      const dest = path.join(temp, 'uploads', rel);
      await fs.mkdir(path.dirname(dest), { recursive: true });
      await fs.writeFile(dest, data);
      const posix = rel.split(path.sep).join('/');
      manifest.uploads.files.push({ path: posix, bytes: data.byteLength, sha256: sha256(data) });
      manifest.uploads.bytes += data.byteLength;
    }
    manifest.media = await backupGridfsMedia(temp);
    await fs.writeFile(path.join(temp, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    await verifyBackup(temp);
    await fs.rename(temp, target);
    return manifest;
  } catch (error) {
    await fs.rm(temp, { recursive: true, force: true });
    throw error;
  }
}

/** Stream every GridFS media file into `dir/media/<key>`, hashing it on the way. */
async function backupGridfsMedia(dir: string): Promise<{ files: UploadEntry[]; bytes: number }> {
  const store = gridfsMediaStore(db);
  const out: { files: UploadEntry[]; bytes: number } = { files: [], bytes: 0 };
  for (const file of await store.all()) {
    const dest = path.join(dir, 'media', ...file.key.split('/'));
    await fs.mkdir(path.dirname(dest), { recursive: true });
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    let source: Readable;
    try {
      source = await store.open(file.key);
    } catch {
      continue; // deleted while we copied: not part of the archive
    }
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          bytes += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(dest),
    );
    out.files.push({ path: file.key, bytes, sha256: hash.digest('hex') });
    out.bytes += bytes;
  }
  return out;
}

const sha256OfFile = (file: string) => sha256OfStream(createReadStream(file));

/** Check an archive against its manifest (format, every file's hash, document counts). */
export async function verifyBackup(dir: string): Promise<Manifest> {
  const raw = await fs.readFile(path.join(dir, 'manifest.json'), 'utf8').catch(() => {
    throw new Error(`${dir} is not a backup (no manifest.json).`);
  });
  const manifest = JSON.parse(raw) as Manifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION) {
    throw new Error(`${dir}: unknown backup format.`);
  }
  for (const [name, entry] of Object.entries(manifest.collections)) {
    if (!/^[\w.-]+$/.test(name) || entry.file !== `db/${name}.json`)
      throw new Error(`Bad collection entry ${name}`);
    const text = await fs.readFile(path.join(dir, entry.file), 'utf8');
    if (sha256(text) !== entry.sha256)
      throw new Error(`${entry.file} is damaged (checksum mismatch).`);
    const lines = text.split('\n').filter(Boolean).length;
    if (lines !== entry.count)
      throw new Error(`${entry.file}: ${lines} documents, manifest says ${entry.count}.`);
  }
  for (const file of manifest.uploads.files) {
    const full = path.resolve(dir, 'uploads', file.path);
    if (!full.startsWith(path.resolve(dir, 'uploads') + path.sep))
      throw new Error(`Bad upload path ${file.path}`);
    const data = await fs.readFile(full);
    if (sha256(data) !== file.sha256)
      throw new Error(`uploads/${file.path} is damaged (checksum mismatch).`);
  }
  for (const file of manifest.media?.files ?? []) {
    if (!isMediaKey(file.path)) throw new Error(`Bad media path ${file.path}`);
    if ((await sha256OfFile(path.join(dir, 'media', ...file.path.split('/')))) !== file.sha256)
      throw new Error(`media/${file.path} is damaged (checksum mismatch).`);
  }
  return manifest;
}

/**
 * Replace the connected database's content and the uploads folder with an archive's.
 * Collections absent from the archive are emptied; files absent from it are deleted.
 */
export async function restoreBackup(options: {
  source: string;
  uploadsDir: string;
}): Promise<Manifest> {
  const source = path.resolve(options.source);
  const manifest = await verifyBackup(source);

  const wanted = new Set(Object.keys(manifest.collections));
  for (const name of await userCollections()) {
    if (!wanted.has(name)) await db().collection(name).deleteMany({});
  }
  for (const [name, entry] of Object.entries(manifest.collections)) {
    const collection = db().collection(name);
    const text = await fs.readFile(path.join(source, entry.file), 'utf8');
    const docs = text
      .split('\n')
      .filter(Boolean)
      .map((line) => EJSON.parse(line, { relaxed: false }) as Document);
    await collection.deleteMany({});
    for (let i = 0; i < docs.length; i += 500) await collection.insertMany(docs.slice(i, i + 500));
    const meta = JSON.parse(await fs.readFile(path.join(source, entry.metadata), 'utf8')) as {
      indexes: Document[];
    };
    const indexes = (EJSON.deserialize(meta.indexes) as Document[]).filter(
      (ix) => ix.name !== '_id_',
    );
    for (const ix of indexes) {
      const { key, name: indexName, v: _v, ns: _ns, ...rest } = ix;
      await collection.createIndex(key as mongoose.mongo.IndexSpecification, {
        ...rest,
        name: String(indexName),
      });
    }
    const count = await collection.countDocuments();
    if (count !== entry.count)
      throw new Error(`${name}: restored ${count} documents, expected ${entry.count}.`);
  }

  const uploadsRoot = path.resolve(options.uploadsDir);
  await fs.mkdir(uploadsRoot, { recursive: true });
  const keep = new Set(manifest.uploads.files.map((f) => f.path.split('/').join(path.sep)));
  for (const rel of await listFiles(uploadsRoot)) {
    if (!keep.has(rel)) await fs.rm(path.join(uploadsRoot, rel), { force: true });
  }
  for (const file of manifest.uploads.files) {
    const dest = path.join(uploadsRoot, ...file.path.split('/'));
    await fs.mkdir(path.dirname(dest), { recursive: true });
    // Write beside, then rename: a reader never sees a half-written file.
    const temp = path.join(path.dirname(dest), `.${path.basename(dest)}.restore.part`);
    await fs.copyFile(path.join(source, 'uploads', ...file.path.split('/')), temp);
    await fs.rename(temp, dest);
  }

  // The GridFS media bucket: emptied, then filled with the archive's files (an archive made
  // before media could live in GridFS has none, or has the bucket among its collections).
  if (manifest.media || !(`${GRIDFS_BUCKET}.files` in manifest.collections)) {
    await db().collection(`${GRIDFS_BUCKET}.files`).deleteMany({});
    await db().collection(`${GRIDFS_BUCKET}.chunks`).deleteMany({});
    const store = gridfsMediaStore(db);
    for (const file of manifest.media?.files ?? []) {
      await store.put(file.path, path.join(source, 'media', ...file.path.split('/')));
    }
  }
  return manifest;
}
