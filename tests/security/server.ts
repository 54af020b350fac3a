import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * A production server of our own (like the Playwright webServer: server/index.ts on the build,
 * temp DATA_DIR/UPLOADS_DIR on the embedded store), for tests that must kill, restart or
 * reconfigure it, and for the load script. Needs `npm run build` first.
 */
export type TestServer = {
  url: string;
  port: number;
  proc: ChildProcess;
  output: () => string;
  /** What the server wrote on stdout alone. */
  stdout: () => string;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | string>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export function serverEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATA_DIR: path.join(dir, 'data'),
    UPLOADS_DIR: path.join(dir, 'uploads'),
    MONGODB_URI: '',
    SEED: 'false',
    LOG_LEVEL: 'error',
    SESSION_SECRET: 'security-tests-secret-0123456789',
    RATE_LIMIT_LOGIN_PER_IP: '100000',
    RATE_LIMIT_LOGIN_PER_USER: '100000',
    RATE_LIMIT_REGISTER_PER_IP: '100000',
    RATE_LIMIT_CONTACT_PER_IP: '100000',
    RATE_LIMIT_SUBSCRIBE_PER_IP: '100000',
    ...extra,
  };
}

export async function startServer(
  dir: string,
  extra: Record<string, string> = {},
  port?: number,
): Promise<TestServer> {
  const chosen = port ?? (await freePort());
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts', 'build/index.js'], {
    env: { ...process.env, ...serverEnv(dir, extra), PORT: String(chosen) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  proc.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
    stdout += c.toString();
  });
  proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string>((resolve) =>
    proc.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const url = `http://localhost:${chosen}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, port: chosen, proc, output: () => out, stdout: () => stdout, exited };
}

/** Run a project script (create-admin…) against that server's store. */
export function runScriptFor(
  dir: string,
  script: string,
  extra: Record<string, string> = {},
): string {
  return execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', script], {
    env: { ...process.env, ...serverEnv(dir), ...extra },
    encoding: 'utf8',
  });
}

/** Log in through /api/login; returns the Cookie header value. */
export async function apiLogin(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: url },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** A standalone embedded store (`npm run db`) in a child process. */
export type StandaloneStore = { uri: string; proc: ChildProcess; stop: () => Promise<void> };

/**
 * Starts `npm run db` on a free port with these arguments (`['--memory']`, `['--data-dir', d]`)
 * and resolves with its URI once it listens; `stop()` ends it with SIGTERM and waits.
 */
export async function startStandaloneStore(args: string[]): Promise<StandaloneStore> {
  const port = await freePort();
  const proc = spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'embedded-mongo/cli.ts', '--port', String(port), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('mongodb://'));
      if (line) resolve(line.trim());
    });
    proc.once('exit', (code) => reject(new Error(`the store exited (${code})`)));
  });
  return {
    uri,
    proc,
    stop: async () => {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
