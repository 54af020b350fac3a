import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import {
  freePort,
  type StandaloneStore,
  startServer,
  startStandaloneStore,
  type TestServer,
} from '../security/server';
import {
  fediverseSiteEnv,
  makeCertificate,
  type Peer,
  startPeer,
  startTlsProxy,
  type TlsProxy,
  waitFor,
} from '../support/fediverse-peer';

/**
 * Two instances of the site on one database (decision 022) behind one TLS proxy that hands
 * each connection to the next instance, and a peer whose actors follow the site: every Follow
 * is handled once and every Accept delivered once per follower, whichever instance received
 * the Follow and whichever claimed the delivery (the durable queue's lease, decision 053).
 */
test.describe.configure({ mode: 'serial' });

let dir: string;
let store: StandaloneStore | undefined;
let servers: TestServer[] = [];
let proxy: TlsProxy | undefined;
let peer: Peer | undefined;
let handle: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-fedi2-'));
  const certificate = makeCertificate(dir);
  store = await startStandaloneStore(['--memory']);
  const ports = [await freePort(), await freePort()];
  proxy = await startTlsProxy(certificate, ports);
  const env = {
    ...fediverseSiteEnv(certificate, proxy.origin('localhost')),
    MONGODB_URI: store.uri,
  };
  servers = await Promise.all(
    ports.map((port, i) =>
      startServer(dir, { ...env, UPLOADS_DIR: path.join(dir, `uploads-${i}`) }, port),
    ),
  );
  peer = await startPeer(certificate);
  handle = `@night_shore@localhost:${proxy.port}`;
});

test.afterAll(async () => {
  if (process.env.FEDIVERSE_TEST_LOGS) {
    for (const server of servers) {
      console.log(
        server
          .output()
          .split('\n')
          .filter((line) => !line.includes('"msg":"request"') || line.includes('fediverse'))
          .join('\n')
          .slice(-6000),
      );
    }
    console.log(peer?.output().slice(-4000));
  }
  await peer?.stop();
  for (const server of servers) {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
  await proxy?.close();
  await store?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('with two instances, each follower gets exactly one Accept and is counted once', async () => {
  test.setTimeout(240_000);
  const names = ['ann', 'ben', 'cat', 'dan', 'eve', 'fay'];
  // All at once: the Follows land on both instances (the proxy alternates) at the same time.
  await Promise.all(names.map((name) => peer!.follow(name, handle)));
  const accepts = await waitFor(
    async () => (await peer!.received()).filter((a) => a.type === 'Accept'),
    (list) => names.every((n) => list.some((a) => a.recipient === n)),
    60_000,
  );
  // Give a duplicate time to arrive, if one were coming.
  await new Promise((r) => setTimeout(r, 2000));
  const final = (await peer!.received()).filter((a) => a.type === 'Accept');
  expect(final.length).toBe(accepts.length);
  for (const name of names) {
    expect(
      final.filter((a) => a.recipient === name),
      name,
    ).toHaveLength(1);
  }
  for (const server of servers) {
    const res = await fetch(`${server.url}/fediverse/site/followers`, {
      headers: { Accept: 'application/activity+json' },
    });
    expect(((await res.json()) as { totalItems: number }).totalItems).toBe(names.length);
  }
});
