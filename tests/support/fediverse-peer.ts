/**
 * The fediverse test harness (issue 40), for every test that needs a real peer:
 *
 * - `makeCertificate(dir)`: a self-signed certificate for `localhost` and `127.0.0.1`, made by
 *   the `openssl` CLI in `dir` (nothing committed);
 * - `startTlsProxy(tls, target)`: a loopback TLS terminator in front of a plain HTTP port (the
 *   bytes are passed through untouched, so Host, signatures and digests are the client's);
 *   `close()` makes it refuse connections (a server that is down), `reopen()` brings it back on
 *   the same port;
 * - `startPeer(tls)`: a second, independent Fedify server (tests/support/fediverse-peer-app.ts)
 *   in its own process, trusting the certificate, behind its own TLS proxy: actors
 *   `https://127.0.0.1:PORT/users/{name}`, signature-verifying inboxes, a log of what arrived,
 *   and `follow`/`unfollow` by handle (WebFinger over https);
 * - `startFediverseSite(dir, tls)`: the site (a production server, `npm run build` first) with
 *   SITE_URL `https://localhost:PORT` behind a TLS proxy, NODE_EXTRA_CA_CERTS, private peers
 *   allowed and short retries.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

import { freePort, startServer, type TestServer } from '../security/server';

export type Certificate = { certPath: string; cert: string; key: string };

export function makeCertificate(dir: string): Certificate {
  const certPath = path.join(dir, 'cert.pem');
  const keyPath = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
    ],
    { stdio: 'ignore' },
  );
  return {
    certPath,
    cert: fs.readFileSync(certPath, 'utf8'),
    key: fs.readFileSync(keyPath, 'utf8'),
  };
}

export type TlsProxy = {
  port: number;
  origin: (host?: string) => string;
  close: () => Promise<void>;
  reopen: () => Promise<void>;
};

/**
 * TLS on `port` (a free one by default) for `127.0.0.1` and `::1`, passed to `target` (several:
 * each connection to the next, a load balancer in front of several instances).
 */
export async function startTlsProxy(
  certificate: Certificate,
  target: number | number[],
  port?: number,
): Promise<TlsProxy> {
  const chosen = port ?? (await freePort());
  const targets = Array.isArray(target) ? target : [target];
  let turn = 0;
  let servers: tls.Server[] = [];
  const sockets = new Set<net.Socket>();
  const open = async () => {
    servers = [];
    for (const host of ['127.0.0.1', '::1']) {
      const server = tls.createServer(
        { cert: certificate.cert, key: certificate.key },
        (socket) => {
          const upstream = net.connect(targets[turn++ % targets.length]!, '127.0.0.1');
          sockets.add(socket).add(upstream);
          const end = () => {
            socket.destroy();
            upstream.destroy();
            sockets.delete(socket);
            sockets.delete(upstream);
          };
          socket.on('error', end).on('close', end);
          upstream.on('error', end).on('close', end);
          socket.pipe(upstream).pipe(socket);
        },
      );
      const listening = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(chosen, host, () => resolve(true));
      });
      if (listening) servers.push(server);
      else if (host === '127.0.0.1') throw new Error(`cannot listen on ${chosen}`);
    }
  };
  await open();
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    servers = [];
  };
  return {
    port: chosen,
    origin: (host = 'localhost') => `https://${host}:${chosen}`,
    close,
    reopen: open,
  };
}

export type ReceivedActivity = {
  recipient: string | null;
  type: string;
  id: string | null;
  actor: string | null;
  object: string | null;
  json: Record<string, unknown>;
  at: number;
};

export type Peer = {
  /** `https://127.0.0.1:PORT` */
  origin: string;
  proxy: TlsProxy;
  actorId: (name: string) => string;
  received: () => Promise<ReceivedActivity[]>;
  follow: (actor: string, handle: string) => Promise<{ followId: string; target: string }>;
  unfollow: (actor: string) => Promise<void>;
  /** While down, every post to the peer's inboxes answers 503. */
  setDown: (down: boolean) => Promise<void>;
  /** Post `body` (JSON text, or a value to serialise) to `url`, signed with `actor`'s key. */
  post: (actor: string, url: string, body: unknown) => Promise<{ status: number; text: string }>;
  output: () => string;
  stop: () => Promise<void>;
};

export async function startPeer(certificate: Certificate): Promise<Peer> {
  const port = await freePort();
  const proxyPort = await freePort();
  const origin = `https://127.0.0.1:${proxyPort}`;
  const proc: ChildProcess = spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'tests/support/fediverse-peer-app.ts'],
    {
      env: {
        ...process.env,
        PEER_PORT: String(port),
        PEER_ORIGIN: origin,
        NODE_EXTRA_CA_CERTS: certificate.certPath,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const deadline = Date.now() + 90_000;
  while (!out.includes('peer listening')) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`the peer did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const proxy = await startTlsProxy(certificate, port, proxyPort);
  const call = async (name: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/control/${name}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`peer ${name}: ${res.status} ${text}`);
    return JSON.parse(text) as unknown;
  };
  return {
    origin,
    proxy,
    actorId: (name) => `${origin}/users/${name}`,
    received: async () => (await call('received')) as ReceivedActivity[],
    follow: async (actor, handle) =>
      (await call('follow', { actor, handle })) as { followId: string; target: string },
    unfollow: async (actor) => {
      await call('unfollow', { actor });
    },
    setDown: async (down) => {
      await call('down', { down });
    },
    post: async (actor, url, body) =>
      (await call('post', {
        actor,
        url,
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })) as { status: number; text: string },
    output: () => out,
    stop: async () => {
      await proxy.close();
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

export type FediverseSite = {
  server: TestServer;
  proxy: TlsProxy;
  /** `https://localhost:PORT` (SITE_URL) */
  origin: string;
  /** `@night_shore@localhost:PORT` */
  handle: string;
  actorId: string;
};

/** Environment a site needs for the peer tests (add MONGODB_URI for several instances). */
export function fediverseSiteEnv(certificate: Certificate, origin: string): Record<string, string> {
  return {
    SITE_URL: origin,
    NODE_EXTRA_CA_CERTS: certificate.certPath,
    FEDIVERSE_ALLOW_PRIVATE_PEERS: 'true',
    FEDIVERSE_RETRY_SECONDS: '1',
    LOG_LEVEL: 'info',
  };
}

/** The site behind a TLS proxy on https://localhost:PORT (`npm run build` first). */
export async function startFediverseSite(
  dir: string,
  certificate: Certificate,
  extra: Record<string, string> = {},
  proxyPort?: number,
): Promise<FediverseSite> {
  const sitePort = await freePort();
  const proxy = await startTlsProxy(certificate, sitePort, proxyPort);
  const origin = proxy.origin('localhost');
  const server = await startServer(
    dir,
    { ...fediverseSiteEnv(certificate, origin), ...extra },
    sitePort,
  );
  const handleName = extra.FEDIVERSE_HANDLE ?? 'night_shore';
  return {
    server,
    proxy,
    origin,
    handle: `@${handleName}@localhost:${proxy.port}`,
    actorId: `${origin}/fediverse/site`,
  };
}

/** Poll `read` until `check` holds (default 10 s); answers the last value read. */
export async function waitFor<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting; last value: ${JSON.stringify(value).slice(0, 2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
