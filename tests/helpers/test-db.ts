import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type EmbeddedMongo, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import mongoose from 'mongoose';
import { afterAll, beforeAll } from 'vitest';

/**
 * A fresh in-memory embedded store per test file, with mongoose connected to it and a
 * temporary UPLOADS_DIR. Call at the top of an integration test file, before importing
 * app modules that read the environment (use dynamic imports in the tests).
 */
export function setupTestDatabase(): { uploadsDir: string } {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-test-'));
  const uploadsDir = path.join(tmp, 'uploads');
  process.env.UPLOADS_DIR = uploadsDir;
  process.env.DATA_DIR = path.join(tmp, 'data');
  process.env.SESSION_SECRET ??= 'test-session-secret-0123456789';
  process.env.LOG_LEVEL = 'silent';
  let store: EmbeddedMongo | null = null;

  beforeAll(async () => {
    store = await startEmbeddedMongo();
    const { connectDb } = await import('../../app/platform/db.server');
    await connectDb({ uri: store.uri, dbName: 'test' });
    fs.mkdirSync(path.join(uploadsDir, 'audio'), { recursive: true });
    fs.mkdirSync(path.join(uploadsDir, 'images'), { recursive: true });
  });

  afterAll(async () => {
    const { disconnectDb } = await import('../../app/platform/db.server');
    await disconnectDb();
    await store?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  return { uploadsDir };
}

/** Drop every collection's documents (between tests that need a clean slate). */
export async function clearDatabase(): Promise<void> {
  const db = mongoose.connection.db;
  if (!db) return;
  const collections = await db.listCollections().toArray();
  await Promise.all(collections.map((c) => db.collection(c.name).deleteMany({})));
}
