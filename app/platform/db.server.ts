import path from 'node:path';

import { findRunningStore, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import mongoose from 'mongoose';

import { noteWrite, onWrite, startFreshness, stopFreshness } from './data-version.server';
import { watchDriverWrites } from './driver-commands.server';
import { env } from './env.server';
import { processSingleton } from './process-state.server';
import { enableDataCache, noteDataWrite } from './read-cache.server';

/**
 * The one connection helper used by the app, the scripts and the tests.
 *
 * With MONGODB_URI set, mongoose connects to it (Atlas or a local mongod). Without it,
 * the embedded MongoDB-compatible store is started in-process, durable under
 * DATA_DIR/db — or, when another process (the running site) already owns that folder,
 * we connect to the URI it recorded beside its lock. Models and routes never know which.
 */
type DbState = {
  promise: Promise<typeof mongoose> | null;
  stopEmbedded: (() => Promise<void>) | null;
};

declare module './process-state.server' {
  interface ProcessStateRegistry {
    db: DbState;
  }
}

const state = processSingleton('db', (): DbState => ({ promise: null, stopEmbedded: null }));

mongoose.set('strictQuery', true);
// Query filters from user input can never smuggle in operators such as {$ne: null}.
mongoose.set('sanitizeFilter', true);

export const DB_NAME = 'nightshore';

export type ConnectOptions = {
  /** Connect to this URI instead of the configured one (tests). */
  uri?: string;
  dbName?: string;
};

async function resolveUri(): Promise<string> {
  if (env.MONGODB_URI) return env.MONGODB_URI;
  const dataDir = path.resolve(env.DATA_DIR, 'db');
  const running = findRunningStore(dataDir);
  if (running) return running;
  // Every write to the store we own, from any client, reaches this process: what it remembers
  // can be invalidated reliably (app/platform/data-version.server.ts).
  const store = await startEmbeddedMongo({ dataDir, onWrite: (names) => noteWrite(names) });
  state.stopEmbedded = store.stop;
  return store.uri;
}

export function connectDb(options: ConnectOptions = {}): Promise<typeof mongoose> {
  if (!state.promise) {
    state.promise = (async () => {
      const uri = options.uri ?? (await resolveUri());
      await mongoose.connect(uri, {
        dbName: options.dbName ?? DB_NAME,
        serverSelectionTimeoutMS: 10_000,
        autoIndex: true,
        // Every write this process sends bumps the data version; round trips are counted
        // per request (app/platform/data-version.server.ts, decision 039).
        monitorCommands: true,
      });
      watchDriverWrites(mongoose.connection.getClient());
      // The read cache and the page cache trust what they hold only as long as the data
      // version says so: exactly when we own the store, by the shared version otherwise.
      onWrite(noteDataWrite);
      startFreshness(state.stopEmbedded ? 'owned' : 'shared');
      enableDataCache();
      // Make sure every model's indexes exist before the first request.
      await Promise.all(Object.values(mongoose.models).map((m) => m.init()));
      return mongoose;
    })().catch((error: unknown) => {
      state.promise = null;
      throw error;
    });
  }
  return state.promise;
}

/** Close mongoose and, if we own it, the embedded store (flushing its journal). */
export async function disconnectDb(): Promise<void> {
  const pending = state.promise;
  state.promise = null;
  // Its last writes reach the shared version before the client closes (nothing left running).
  await stopFreshness();
  if (pending) {
    await pending.catch(() => undefined);
    await mongoose.disconnect();
  }
  if (state.stopEmbedded) {
    const stop = state.stopEmbedded;
    state.stopEmbedded = null;
    await stop();
  }
}

/**
 * True when this process started the embedded store it uses: then no other instance can have
 * been writing to it before this start (the start-up sweeps may clean up at once).
 */
export function ownsEmbeddedStore(): boolean {
  return state.stopEmbedded !== null;
}

/** True when the database answers a ping (used by /healthz). */
export async function pingDb(): Promise<boolean> {
  try {
    const db = mongoose.connection.db;
    if (!db) return false;
    await db.admin().ping();
    return true;
  } catch {
    return false;
  }
}
