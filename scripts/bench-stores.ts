import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { findRunningStore } from '@night-shore/embedded-mongo';
import { MongoClient } from 'mongodb';

import {
  adminSession,
  freePort,
  type ProdServer,
  projectRoot,
  startProdServer,
} from './prod-server';

/**
 * The shapes `npm run bench` measures the site in (issue 30): the embedded store in the app's
 * process; an external store (`npm run db`, a separate process, reached through MONGODB_URI);
 * and that store behind a TCP proxy that delays each direction by some milliseconds (an
 * Atlas-like round trip).
 */

export type StoreShape = { kind: 'embedded' } | { kind: 'external'; latencyMs: number };

export const shapeName = (shape: StoreShape) =>
  shape.kind === 'embedded'
    ? 'embedded'
    : shape.latencyMs > 0
      ? `external+${shape.latencyMs}ms`
      : 'external';

/**
 * A TCP proxy that delays every chunk, in each direction, by `delayMs` (order kept: timers of
 * the same delay fire in the order they were set). Returns its port and a close function.
 */
export async function startLatencyProxy(
  targetPort: number,
  delayMs: number,
): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const delayed = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, delayMs);
    });
    from.on('end', () => setTimeout(() => to.end(), delayMs));
    from.on('error', () => to.destroy());
    from.on('close', () => setTimeout(() => to.destroy(), delayMs));
  };
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect(targetPort, '127.0.0.1');
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    client.once('close', () => sockets.delete(client));
    upstream.once('close', () => sockets.delete(upstream));
    delayed(client, upstream);
    delayed(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * `npm run db` as a child process on a free port, with a data directory of its own: compiled
 * (build/db.js, scripts/build-server.mjs) when built, as production runs it; else through tsx.
 */
export async function startExternalStore(
  dataDir: string,
): Promise<{ uri: string; port: number; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const compiled = path.join(projectRoot, 'build', 'db.js');
  const entry = fs.existsSync(compiled)
    ? [compiled]
    : [path.join(projectRoot, 'node_modules/tsx/dist/cli.mjs'), 'embedded-mongo/cli.ts'];
  const proc: ChildProcess = spawn(
    process.execPath,
    [...entry, '--port', String(port), '--data-dir', dataDir],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { MALLOC_ARENA_MAX: '2', ...process.env },
    },
  );
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('mongodb://'));
      if (line) resolve(line.trim());
    });
    proc.once('exit', (code) => reject(new Error(`npm run db exited (${code})`)));
  });
  return {
    uri,
    port,
    pid: proc.pid ?? 0,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

export type ShapedServer = {
  shape: StoreShape;
  server: ProdServer;
  /** The database the app uses, as the app reaches it (for writes from the bench). */
  uri: string;
  /** The external store's process, if any (under tsx, its launcher: the store is a child). */
  storePid?: number;
  stop: () => Promise<void>;
};

/** The production server in that shape, seeded, answering. */
export async function startShapedServer(
  shape: StoreShape,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<ShapedServer> {
  if (shape.kind === 'embedded') {
    const server = await startProdServer({ env, nodeArgs });
    const uri = findRunningStore(path.join(server.tmpDir, 'data', 'db'));
    if (!uri) throw new Error('The embedded store recorded no URI.');
    return { shape, server, uri, stop: () => server.stop() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-bench-db-'));
  const store = await startExternalStore(path.join(dir, 'db'));
  const proxy = shape.latencyMs > 0 ? await startLatencyProxy(store.port, shape.latencyMs) : null;
  const uri = proxy ? `mongodb://127.0.0.1:${proxy.port}/` : store.uri;
  try {
    const server = await startProdServer({ env: { MONGODB_URI: uri, ...env }, nodeArgs });
    return {
      shape,
      server,
      uri: store.uri,
      storePid: store.pid,
      stop: async () => {
        await server.stop();
        await proxy?.close();
        await store.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await proxy?.close();
    await store.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A write as another instance makes it: a document into a collection no page reads (the store
 * the app owns reports it), and the shared data version bumped (what another instance running
 * this code does after each write, decision 039). Every cache of the app is cold afterwards.
 */
export async function writeFromElsewhere(uri: string): Promise<void> {
  const client = new MongoClient(uri, { directConnection: true });
  try {
    const db = client.db('nightshore');
    await db.collection('bench_writes').insertOne({ at: new Date() });
    await db
      .collection<{ _id: string; n: number }>('data_versions')
      .updateOne({ _id: 'site' }, { $inc: { n: 1 } }, { upsert: true });
  } finally {
    await client.close();
  }
}

/** Database commands and sequential round trips of one answer (`Server-Timing: db`). */
export function roundTripsOf(response: Response): { commands: number; roundTrips: number } | null {
  const match = /db;desc="commands=(\d+) round-trips=(\d+)"/.exec(
    response.headers.get('server-timing') ?? '',
  );
  return match ? { commands: Number(match[1]), roundTrips: Number(match[2]) } : null;
}

/**
 * Each path once on cold caches (a write from elsewhere before each, then 1.2 s: past every
 * instance's freshness bound), with its commands and sequential round trips.
 */
export async function coldRoundTrips(
  shaped: ShapedServer,
  paths: readonly string[],
): Promise<Map<string, { commands: number; roundTrips: number }>> {
  const out = new Map<string, { commands: number; roundTrips: number }>();
  for (const p of paths) {
    await writeFromElsewhere(shaped.uri);
    await new Promise((r) => setTimeout(r, 1200));
    const res = await fetch(`${shaped.server.origin}${p}`);
    await res.arrayBuffer();
    const counted = roundTripsOf(res);
    if (counted) out.set(p, counted);
  }
  return out;
}

/**
 * `fetch`, tried once more when the connection was closed under it (a kept-alive socket the
 * server closed after its 5 s idle timeout while the request was being sent).
 */
export async function fetchOnce(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

/** The arithmetic mean of some figures (the benches' rounds). */
export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Resident memory of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/**
 * Wait until the site is quiet: `/` answered from the page cache (no `Server-Timing: db`, so
 * the server needs DB_ROUND_TRIP_HEADER=true) for 3 s in a row, i.e. no write emptied it. A
 * seeded server is not: the demo tracks' media jobs (waveforms, streams) finish one after
 * another for a minute or more on a loaded machine, and each is a real write; measured during
 * them, `/` is rendered again after every job. At most `limitMs`; the seconds waited.
 */
export async function waitForQuiet(
  origin: string,
  limitMs = 240_000,
  quietMs = 3000,
): Promise<number> {
  const started = Date.now();
  let quietSince: number | null = null;
  while (Date.now() - started < limitMs) {
    const res = await fetchOnce(`${origin}/`);
    await res.arrayBuffer();
    const rendered = (res.headers.get('server-timing') ?? '').includes('db;');
    if (rendered) quietSince = null;
    else quietSince ??= Date.now();
    if (quietSince !== null && Date.now() - quietSince >= quietMs) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return Math.round((Date.now() - started) / 1000);
}

/**
 * Requests per second of one GET from Node's own HTTP client (keep-alive, `connections`
 * sockets, each asking again as soon as its answer ended): a second client for the Range
 * bench, since autocannon decodes every body as UTF-8 and 256 KB of MP3 makes that decoding,
 * not the server, its bound. An answer with another status than `expectStatus` throws.
 */
export async function nodeClientRate(
  origin: string,
  path: string,
  headers: Record<string, string>,
  expectStatus: number,
  ms: number,
  connections = 50,
): Promise<number> {
  const url = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.get({ host: url.hostname, port: url.port, path, headers, agent }, (res) => {
        if (res.statusCode !== expectStatus) {
          res.resume();
          reject(new Error(`${path} answered ${res.statusCode}, expected ${expectStatus}`));
          return;
        }
        res.on('data', () => undefined);
        res.on('end', () => resolve());
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  let done = 0;
  const end = Date.now() + ms;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < end) {
          await one();
          done += 1;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return done / (ms / 1000);
}

/**
 * CPU time (user + system, seconds) a process and all its descendants have used so far, from
 * /proc (a launcher such as tsx runs the real program as its child); 0 when it is gone.
 */
export function cpuSeconds(pid: number): number {
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  const visit = (id: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${id}/stat`, 'utf8');
      // Fields after the command (which may hold spaces) start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
      for (const task of fs.readdirSync(`/proc/${id}/task`)) {
        const children = fs.readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').trim();
        for (const child of children ? children.split(' ') : []) visit(Number(child));
      }
    } catch {
      // gone
    }
  };
  visit(pid);
  return total;
}

/** Resident memory of a process split by kind, in MB: anonymous (heaps) and file-backed. */
export function rssDetail(pid: number): { anon: number; file: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const mb = (name: string) =>
      Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
    return { anon: mb('RssAnon'), file: mb('RssFile') };
  } catch {
    return { anon: 0, file: 0 };
  }
}

/** An administrator on a shaped server (create-admin against its database), logged in. */
export function adminCookie(shaped: ShapedServer, name: string): Promise<string> {
  return adminSession(shaped.server, name, {
    mongodbUri: shaped.shape.kind === 'embedded' ? '' : shaped.uri,
    fetcher: fetchOnce,
  });
}
