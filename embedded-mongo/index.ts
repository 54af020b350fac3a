// Public API of the embedded MongoDB-compatible store.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

import { changedCollections, type Op, Store } from './engine';
import { Journal } from './journal';
import { newState, WireServer } from './server';
import { ttlSweep } from './ttl';

export interface EmbeddedMongoOptions {
  /** Directory for the journal and snapshot. Omit for an in-memory store. */
  dataDir?: string;
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Durable mode: compact the journal into a snapshot once it exceeds this many bytes (default 16 MiB). */
  journalCompactBytes?: number;
  /**
   * Called synchronously with the names of the collections that a command (from any client) or
   * a TTL sweep changed, after the changes are applied and before the reply is sent. The app uses
   * it to invalidate its caches. Names only: the same name in two databases is one name here.
   */
  onWrite?: (collections: string[]) => void;
  /**
   * Test commands (`configureFailPoint`), like mongod's `enableTestCommands`. Default: on for an
   * in-memory store, off with a `dataDir`; the environment variable EMBEDDED_MONGO_TEST_COMMANDS
   * (`1`/`true` or `0`/`false`) overrides the default, this option overrides both.
   */
  testCommands?: boolean;
}

export interface EmbeddedMongo {
  uri: string;
  port: number;
  stop(): Promise<void>;
}

const LOCK_FILE = 'mongod.lock';
const heldLocks = new Set<string>();

interface LockInfo {
  pid: number;
  uri: string | null;
  startedAt?: string;
}

function readLock(dir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockInfo;
    return typeof info.pid === 'number' ? info : null;
  } catch {
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeLock(dir: string, info: LockInfo): void {
  const path = join(dir, LOCK_FILE);
  writeFileSync(path, JSON.stringify(info) + '\n');
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function acquireLock(dir: string): void {
  if (heldLocks.has(dir)) {
    throw new Error(
      `embedded-mongo: ${dir} is already in use by a store in this process (pid ${process.pid}). ` +
        'Use findRunningStore(dataDir) to get its URI instead of starting a second store.',
    );
  }
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      // Exclusive create: of two processes racing for the lock, only one succeeds.
      const fd = openSync(path, 'wx');
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
          const info = readLock(dir);
          throw new Error(
            `embedded-mongo: ${dir} is locked by another process (pid ${info?.pid ?? 'unknown'}). ` +
              'findRunningStore(dataDir) returns its URI.',
          );
        }
        throw e;
      }
      const info = readLock(dir);
      if (info && info.pid !== process.pid && pidAlive(info.pid)) {
        throw new Error(
          `embedded-mongo: ${dir} is locked by another running process (pid ${info.pid}` +
            `${info.uri ? `, serving ${info.uri}` : ''}). Stop it, or connect to it: ` +
            'findRunningStore(dataDir) returns its URI.',
        );
      }
      // Stale lock (its process is gone): take it over.
      try {
        unlinkSync(path);
      } catch {
        // removed concurrently; the retry decides
      }
    }
  }
  writeLock(dir, { pid: process.pid, uri: null, startedAt: new Date().toISOString() });
  heldLocks.add(dir);
}

function releaseLock(dir: string): void {
  heldLocks.delete(dir);
  const info = readLock(dir);
  if (info && info.pid === process.pid) {
    try {
      unlinkSync(join(dir, LOCK_FILE));
    } catch {
      // already gone
    }
  }
}

/**
 * If a live process holds the lock of `dataDir`, returns the URI it recorded beside its lock;
 * otherwise null. For scripts run while the site (and its store) is up.
 */
export function findRunningStore(dataDir: string): string | null {
  const info = readLock(resolve(dataDir));
  if (!info || !info.uri) return null;
  if (info.pid === process.pid) return heldLocks.has(resolve(dataDir)) ? info.uri : null;
  return pidAlive(info.pid) ? info.uri : null;
}

function testCommandsOn(opts: EmbeddedMongoOptions): boolean {
  if (opts.testCommands !== undefined) return opts.testCommands;
  const fromEnv = process.env.EMBEDDED_MONGO_TEST_COMMANDS?.trim().toLowerCase();
  if (fromEnv === '1' || fromEnv === 'true') return true;
  if (fromEnv === '0' || fromEnv === 'false') return false;
  return !opts.dataDir;
}

export async function startEmbeddedMongo(opts: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = opts.host ?? '127.0.0.1';
  const store = new Store();
  let journal: Journal | null = null;
  let dir: string | null = null;
  if (opts.dataDir) {
    dir = resolve(opts.dataDir);
    mkdirSync(dir, { recursive: true });
    acquireLock(dir);
    try {
      journal = new Journal(dir, store, opts.journalCompactBytes);
      const { torn } = await journal.load();
      if (torn) console.warn(`embedded-mongo: truncated a torn journal tail in ${dir}`);
    } catch (e) {
      releaseLock(dir);
      throw e;
    }
  }
  const persist = journal ? (ops: Op[]) => journal!.commit(ops) : () => Promise.resolve();
  const onWrite = opts.onWrite;
  const commit = onWrite
    ? (ops: Op[]) => {
        onWrite(changedCollections(ops));
        return persist(ops);
      }
    : persist;
  const server = new WireServer(newState(store, commit, { testCommands: testCommandsOn(opts) }));
  let port: number;
  try {
    port = await server.listen(opts.port ?? 0, host);
  } catch (e) {
    await journal?.close(false);
    if (dir) releaseLock(dir);
    throw e;
  }
  const uriHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const uri = `mongodb://${uriHost}:${port}/?directConnection=true`;
  if (dir) writeLock(dir, { pid: process.pid, uri, startedAt: new Date().toISOString() });
  const ttlTimer = setInterval(() => ttlSweep(store, commit), 30_000);
  ttlTimer.unref();

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(ttlTimer);
      await server.close();
      if (journal) await journal.close(true);
      if (dir) releaseLock(dir);
    })();
    return stopping;
  };
  return { uri, port, stop };
}
