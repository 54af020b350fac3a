import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { buildIfStale } from './build';

/**
 * Shared by `npm run bench` and `npm run lighthouse`: the one build (scripts/build.ts) when the
 * last is missing or older than the sources, then start the production server as `npm start` runs it
 * (build/server.js, compiled from server/index.ts, with MALLOC_ARENA_MAX=2: decision 040) on a
 * free port with a temporary DATA_DIR/UPLOADS_DIR and the demo content seeded.
 */

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** The one build (scripts/build.ts), unless the last one is current; `--build` forces it. */
export function buildIfNeeded(): void {
  buildIfStale({ force: process.argv.includes('--build') });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type ProdServer = {
  origin: string;
  port: number;
  tmpDir: string;
  uploadsDir: string;
  /** The server process's id (e.g. to read its memory). */
  pid: number;
  stop: () => Promise<void>;
};

export async function startProdServer(
  options: {
    env?: Record<string, string>;
    nodeArgs?: string[];
    /**
     * Another server module (default: the project's build/server.js), e.g. a bench variant's
     * server/index.ts (a `.ts` entry runs through tsx).
     */
    serverEntry?: string;
    /** Another build (default: build/index.js). */
    buildPath?: string;
    /** Another checkout to run from (default: this one), e.g. a revision's worktree. */
    cwd?: string;
  } = {},
): Promise<ProdServer> {
  const port = await freePort();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-prod-'));
  const uploadsDir = path.join(tmpDir, 'uploads');
  const origin = `http://localhost:${port}`;
  const cwd = options.cwd ?? root;
  const entry = options.serverEntry ?? path.join(cwd, 'build', 'server.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []),
      entry,
      options.buildPath ?? 'build/index.js',
    ],
    {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        MALLOC_ARENA_MAX: '2',
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        DATA_DIR: path.join(tmpDir, 'data'),
        UPLOADS_DIR: uploadsDir,
        MONGODB_URI: '',
        SEED: 'true',
        LOG_LEVEL: 'error',
        SESSION_SECRET: 'bench-session-secret-at-least-16',
        SITE_URL: origin,
        ...options.env,
      },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.length > 20_000) stderr = stderr.slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(tmpDir, { recursive: true, force: true });
  };

  // BENCH_START_SECONDS: a longer wait on a machine shared with other work.
  const startSeconds = Number(process.env.BENCH_START_SECONDS ?? 120);
  const deadline = Date.now() + startSeconds * 1000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited (code ${child.exitCode}):\n${stderr}`);
    }
    try {
      const res = await fetch(`${origin}/`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer within ${startSeconds} s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { origin, port, tmpDir, uploadsDir, pid: child.pid ?? 0, stop };
}

export const projectRoot = root;

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/**
 * A worktree of `rev` in .bench-tmp/ab/<commit> (sharing this checkout's node_modules), built
 * once (a build stamp marks it done): the other side of an A/B bench (`bench:ab`,
 * `bench:blocking`); start its server with `startProdServer({ cwd: dir })`.
 */
export function checkoutBuilt(rev: string): { dir: string; label: string } {
  const commit = git('rev-parse', '--verify', `${rev}^{commit}`);
  const dir = path.join(root, '.bench-tmp', 'ab', commit.slice(0, 12));
  if (!fs.existsSync(dir)) {
    git('worktree', 'add', '--detach', dir, commit);
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  }
  if (!fs.existsSync(path.join(dir, 'build', 'build-stamp.json'))) {
    console.log(`Building ${rev} (${commit.slice(0, 12)}) in ${path.relative(root, dir)}…`);
    execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/build.ts'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return { dir, label: `${rev} (${commit.slice(0, 12)})` };
}

/**
 * An administrator on that server (create-admin against its store: the embedded one in its data
 * folder, or `mongodbUri`), logged in through /api/login: the Cookie header value, for scripts
 * that measure admin pages or upload. `fetcher` sends the login (bench-stores' `fetchOnce`
 * through its latency proxy).
 */
export async function adminSession(
  server: ProdServer,
  name: string,
  {
    mongodbUri = '',
    fetcher = fetch,
  }: { mongodbUri?: string; fetcher?: (url: string, init?: RequestInit) => Promise<Response> } = {},
): Promise<string> {
  const admin = { username: name, password: `${name}-password` };
  execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/create-admin.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: path.join(server.tmpDir, 'data'),
      UPLOADS_DIR: server.uploadsDir,
      MONGODB_URI: mongodbUri,
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
  });
  const login = await fetcher(`${server.origin}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.origin },
    body: JSON.stringify(admin),
  });
  if (login.status !== 200) throw new Error(`admin login: ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * The two sides of an A/B bench, each a production server with the demo content: `base` built
 * in its worktree, `head` likewise when given, else this checkout's own build.
 */
export async function startAbServers(
  baseRev: string,
  headRev: string | undefined,
): Promise<{
  labels: { base: string; head: string };
  servers: { base: ProdServer; head: ProdServer };
}> {
  const base = checkoutBuilt(baseRev);
  let head: { dir: string; label: string };
  if (headRev) head = checkoutBuilt(headRev);
  else {
    buildIfNeeded();
    head = { dir: root, label: 'this checkout' };
  }
  return {
    labels: { base: base.label, head: head.label },
    servers: {
      base: await startProdServer({ cwd: base.dir }),
      head: await startProdServer({ cwd: head.dir }),
    },
  };
}
