// Prints, as JSON, where a marker string occurs in the database (every collection) and in
// UPLOADS_DIR (file names and contents), plus the document count of each collection and
// the list of upload files. Used by the hostile-input tests in tests/api/hostile/ (run with
// runScript against the e2e server's store): `MARKER=… tsx tests/security/scan-marker.ts`.
import fs from 'node:fs/promises';
import path from 'node:path';

import mongoose from 'mongoose';

import { connectDb, disconnectDb } from '../../app/platform/db.server';
import { uploadsDir } from '../../app/platform/env.server';

const marker = process.env.MARKER ?? '';
if (marker.length < 8) throw new Error('MARKER must be at least 8 characters');

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(root, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out;
}

await connectDb();
try {
  const db = mongoose.connection.db!;
  const counts: Record<string, number> = {};
  const hits: string[] = [];
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    const docs = await db.collection(name).find({}).toArray();
    counts[name] = docs.length;
    for (const doc of docs)
      if (JSON.stringify(doc).includes(marker)) hits.push(`${name}:${String(doc._id)}`);
  }
  const root = uploadsDir();
  const files = await listFiles(root);
  const fileHits: string[] = [];
  for (const file of files) {
    const data = await fs.readFile(file).catch(() => null);
    if (file.includes(marker) || (data && data.includes(marker)))
      fileHits.push(path.relative(root, file));
  }
  const rel = files.map((f) => path.relative(root, f)).sort();
  console.log(JSON.stringify({ counts, hits, fileHits, files: rel }));
} finally {
  await disconnectDb();
}
