import mongoose from 'mongoose';

import { GRIDFS_BUCKET, isMediaKey, SHIPPED_KEYS } from './media-store.server';

/** Where unreferenced GridFS files are renamed to (never served: not a media key). */
export const GRIDFS_ORPHANS_PREFIX = '.orphans/';
const ORPHAN_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

type GridFile = {
  _id: mongoose.mongo.ObjectId;
  filename: string;
  uploadDate: Date;
  metadata?: { quarantinedAt?: Date };
};

const derivativeOf = (key: string) => key.replace(/-\d+w(\.\w+)$/, '');

/**
 * The start-up sweep of media in GridFS (decision 023), the counterpart of the disk's:
 *
 * 1. chunks whose file document does not exist: an upload cut short (GridFS writes the file
 *    document after the last chunk). Removed once older than `graceMs` (by the time in their
 *    `files_id`), so another instance's upload in progress is left alone;
 * 2. files no content refers to (a crash between storing the file and writing its record),
 *    derivatives following their original: renamed to `.orphans/<key>` (not served) rather
 *    than deleted, in case a document is restored; older than `graceMs` only;
 * 3. quarantined files older than 7 days: deleted.
 */
export async function sweepGridfsMedia(
  referencedUrls: Set<string>,
  graceMs: number,
  now = Date.now(),
): Promise<{ orphanChunks: number; quarantined: string[]; purged: number }> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('The database is not connected.');
  const files = db.collection<GridFile>(`${GRIDFS_BUCKET}.files`);
  const chunks = db.collection<{ files_id: mongoose.mongo.ObjectId }>(`${GRIDFS_BUCKET}.chunks`);
  const bucket = new mongoose.mongo.GridFSBucket(db, { bucketName: GRIDFS_BUCKET });

  const all = await files
    .find({}, { projection: { _id: 1, filename: 1, uploadDate: 1, metadata: 1 } })
    .toArray();
  const fileIds = new Set(all.map((f) => f._id.toHexString()));
  const chunkOwners = (await chunks.distinct('files_id')) as mongoose.mongo.ObjectId[];
  const dead = chunkOwners.filter(
    (id) => !fileIds.has(id.toHexString()) && now - id.getTimestamp().getTime() >= graceMs,
  );
  let orphanChunks = 0;
  if (dead.length > 0) {
    orphanChunks = (await chunks.deleteMany({ files_id: { $in: dead } })).deletedCount;
  }

  const referenced = new Set(
    [...referencedUrls]
      .filter((u) => u.startsWith('/uploads/'))
      .map((u) => u.slice('/uploads/'.length)),
  );
  const referencedBases = new Set([...referenced].map((k) => k.replace(/\.\w+$/, '')));
  const quarantined: string[] = [];
  let purged = 0;
  for (const file of all) {
    if (file.filename.startsWith(GRIDFS_ORPHANS_PREFIX)) {
      const since = file.metadata?.quarantinedAt?.getTime() ?? file.uploadDate.getTime();
      if (now - since > ORPHAN_KEEP_MS) {
        await bucket.delete(file._id).catch(() => undefined);
        purged += 1;
      }
      continue;
    }
    if (!isMediaKey(file.filename) || SHIPPED_KEYS.has(file.filename)) continue;
    const original = derivativeOf(file.filename);
    const isReferenced =
      referenced.has(file.filename) ||
      (original !== file.filename && referencedBases.has(original));
    if (isReferenced || now - file.uploadDate.getTime() < graceMs) continue;
    await files.updateOne(
      { _id: file._id },
      {
        $set: {
          filename: `${GRIDFS_ORPHANS_PREFIX}${file.filename}`,
          'metadata.quarantinedAt': new Date(now),
        },
      },
    );
    quarantined.push(file.filename);
  }
  return { orphanChunks, quarantined, purged };
}
