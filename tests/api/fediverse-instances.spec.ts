import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import {
  apiLogin,
  freePort,
  runScriptFor,
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
let origin: string;
const ADMIN = { username: 'fedi2-admin', password: 'fedi2-admin-password-1' };

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-fedi2-'));
  const certificate = makeCertificate(dir);
  store = await startStandaloneStore(['--memory']);
  runScriptFor(dir, 'scripts/create-admin.ts', {
    MONGODB_URI: store.uri,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
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
  origin = proxy.origin('localhost');
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

test('with two instances, a show published on one reaches the followers’ server once, and its edit on the other once', async () => {
  test.setTimeout(120_000);
  const [a, b] = servers as [TestServer, TestServer];
  const cookie = await apiLogin(a.url, ADMIN.username, ADMIN.password);
  const show = {
    title: 'Two-instance night',
    venue: 'The Pier',
    location: 'Asbury Park, NJ',
    date: '2031-11-01',
    time: '9:00 PM',
  };
  const send = (server: TestServer, method: string, p: string, body: object) =>
    fetch(`${server.url}${p}`, {
      method,
      headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const created = await send(a, 'POST', '/api/admin/shows', show);
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const about = async () =>
    (await peer!.received()).filter((x) => x.object === `${origin}/shows/${id}`).map((x) => x.type);
  await waitFor(about, (verbs) => verbs.includes('Create'), 60_000);
  expect(
    (await send(b, 'PUT', `/api/admin/shows/${id}`, { ...show, title: 'Renamed' })).status,
  ).toBe(200);
  await waitFor(about, (verbs) => verbs.includes('Update'), 60_000);
  // Both instances run the publishing sweep and the delivery queue: give a duplicate time.
  await new Promise((r) => setTimeout(r, 3000));
  // Six followers on one server: one delivery to its shared inbox for each activity.
  expect(await about()).toEqual(['Create', 'Update']);
});
