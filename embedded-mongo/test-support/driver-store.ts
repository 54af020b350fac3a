// What the store's driver tests share: one in-memory store and one official-driver client per
// test file, a fresh database per test, and the check of a server error's code.
import { type Db, MongoClient, MongoServerError } from 'mongodb';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';

import { type EmbeddedMongo, type EmbeddedMongoOptions, startEmbeddedMongo } from '../index';

export type DriverStore = { server: EmbeddedMongo; client: MongoClient; db: Db };

/**
 * Registers the file's hooks: the store and the client start before the first test and stop
 * after the last; each test gets the database `<prefix><n>`. Read the fields inside tests and
 * hooks (the hooks set them). `options` go to `startEmbeddedMongo` (in memory by default).
 */
export function storeForEachTest(prefix: string, options: EmbeddedMongoOptions = {}): DriverStore {
  const store = {} as DriverStore;
  let n = 0;
  beforeAll(async () => {
    store.server = await startEmbeddedMongo(options);
    store.client = new MongoClient(store.server.uri, { serverSelectionTimeoutMS: 3000 });
    await store.client.connect();
  });
  afterAll(async () => {
    await store.client?.close();
    await store.server?.stop();
  });
  beforeEach(() => {
    store.db = store.client.db(`${prefix}${++n}`);
  });
  return store;
}

/** Awaits `p`, which must fail with a server error of this code; returns the error. */
export async function expectCode(p: Promise<unknown>, code: number): Promise<MongoServerError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MongoServerError);
    expect((e as MongoServerError).code).toBe(code);
    return e as MongoServerError;
  }
  throw new Error(`expected error code ${code}`);
}

/** The server error code `p` fails with, undefined when it succeeds; other errors are thrown. */
export async function codeOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (e) {
    if (e instanceof MongoServerError) return e.code as number;
    throw e;
  }
  return undefined;
}
