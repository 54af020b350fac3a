import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { apiLogin, runScriptFor } from '../security/server';
import {
  type Certificate,
  type FediverseSite,
  makeCertificate,
  type Peer,
  startFediverseSite,
  startPeer,
  waitFor,
} from '../support/fediverse-peer';

/**
 * The site as a fediverse actor with a real peer (issue 40, decision 053): the site behind a
 * loopback TLS proxy (SITE_URL https://localhost:PORT, a certificate made here and trusted
 * through NODE_EXTRA_CA_CERTS), and an independent Fedify server (tests/support) whose actors
 * follow the site by its handle (WebFinger over https) and verify what the site signs.
 */
test.describe.configure({ mode: 'serial' });

const ADMIN = { username: 'fedi-admin', password: 'fedi-admin-password-1' };
const AS = { Accept: 'application/activity+json' };
/** Posts one host may make to the inboxes per window here (the peer's own make about 30). */
const HOST_LIMIT = 100;

let dir: string;
let certificate: Certificate;
let site: FediverseSite;
let peer: Peer;
let cookie: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-fedi-'));
  certificate = makeCertificate(dir);
  site = await startFediverseSite(dir, certificate, {
    RATE_LIMIT_FEDIVERSE_PER_HOST: String(HOST_LIMIT),
  });
  peer = await startPeer(certificate);
  runScriptFor(dir, 'scripts/create-admin.ts', {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  cookie = await apiLogin(site.server.url, ADMIN.username, ADMIN.password);
});

test.afterAll(async () => {
  await peer?.stop();
  if (site) {
    site.server.proc.kill('SIGTERM');
    await site.server.exited;
    await site.proxy.close();
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** GET over https through the proxy, trusting the test's certificate. */
function httpsGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      https
        .get(url, { ca: certificate.cert, headers }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        })
        .on('error', reject);
    },
  );
}

const followersCount = async () => {
  const res = await fetch(`${site.server.url}/fediverse/site/followers`, { headers: AS });
  return ((await res.json()) as { totalItems: number }).totalItems;
};

/** A draft-cavage Signature header naming `keyId`, with a signature that verifies nothing. */
const forgedSignature = (keyId: string) =>
  `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date",signature="${crypto.randomBytes(256).toString('base64')}"`;

/** A post to the site's inbox straight to its port (no peer, no real signature). */
const postToInbox = (headers: Record<string, string>, body: string) =>
  fetch(`${site.server.url}/fediverse/site/inbox`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/activity+json', ...headers },
    body,
  });

const acceptsFor = async (actor: string) =>
  (await peer.received()).filter((a) => a.type === 'Accept' && a.recipient === actor);

/** The admin page's form, posted as a browser without JavaScript posts it. */
async function adminPost(fields: Record<string, string>) {
  return fetch(`${site.server.url}/admin/fediverse?tab=blocks`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      Cookie: cookie,
      Origin: site.server.url,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields).toString(),
  });
}

test('the handle resolves by WebFinger over https, to an actor document with its keys, inboxes and collections', async () => {
  const webfinger = await httpsGet(
    `${site.origin}/.well-known/webfinger?resource=acct:${site.handle.slice(1)}`,
  );
  expect(webfinger.status).toBe(200);
  const links = (JSON.parse(webfinger.body) as { links: { rel: string; href?: string }[] }).links;
  expect(links.find((l) => l.rel === 'self')?.href).toBe(site.actorId);

  const actor = JSON.parse((await httpsGet(site.actorId, AS)).body) as Record<string, unknown>;
  expect(actor).toMatchObject({
    id: site.actorId,
    type: 'Organization',
    preferredUsername: 'night_shore',
    name: 'Night Shore',
    url: `${site.origin}/`,
    inbox: `${site.actorId}/inbox`,
    followers: `${site.actorId}/followers`,
    endpoints: { sharedInbox: `${site.origin}/fediverse/inbox` },
  });
  expect(String(actor.summary)).toContain('electronic music collective');
  expect((actor.publicKey as { publicKeyPem: string }).publicKeyPem).toContain('BEGIN PUBLIC KEY');
  // RSA (HTTP Signatures) and Ed25519 (Object Integrity Proofs).
  expect(actor.assertionMethod).toHaveLength(2);
  expect((actor.icon as { url: string }).url).toBe(`${site.origin}/apple-touch-icon.png`);

  // A browser on the actor's URL gets the site's own 404 page, not JSON, not a 500.
  const browser = await fetch(site.actorId.replace(site.origin, site.server.url), {
    headers: { Accept: 'text/html' },
  });
  expect(browser.status).toBe(404);
  expect(browser.headers.get('content-type')).toContain('text/html');

  const nodeinfo = await fetch(`${site.server.url}/.well-known/nodeinfo`);
  const href = ((await nodeinfo.json()) as { links: { href: string }[] }).links[0]!.href;
  expect(href).toBe(`${site.origin}/nodeinfo/2.1`);
  const info = (await (await fetch(`${site.server.url}/nodeinfo/2.1`)).json()) as {
    protocols: string[];
    software: { name: string };
  };
  expect(info.protocols).toEqual(['activitypub']);
  expect(info.software.name).toBe('night-shore');
});

test('a signed Follow gets an Accept within 10 s; the followers count is 1 to anyone, the list is not shown', async () => {
  const { followId, target } = await peer.follow('alice', site.handle);
  expect(target).toBe(site.actorId);
  const [accept] = await waitFor(
    () => acceptsFor('alice'),
    (list) => list.length > 0,
    10_000,
  );
  expect(accept!.actor).toBe(site.actorId);
  expect(accept!.object).toBe(followId);
  expect(await followersCount()).toBe(1);
  const collection = (await (
    await fetch(`${site.server.url}/fediverse/site/followers`, { headers: AS })
  ).json()) as Record<string, unknown>;
  expect(JSON.stringify(collection)).not.toContain(peer.origin);

  const admin = await fetch(`${site.server.url}/admin/fediverse`, { headers: { Cookie: cookie } });
  const html = await admin.text();
  expect(html).toContain('@alice@127.0.0.1');
  expect(html).toMatch(/1 follower\b/);
});

test('an unsigned post, a bad signature, an unknown key, an oversized body and junk are refused with 4xx, nothing stored', async () => {
  const follow = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${peer.origin}/follows/forged`,
    type: 'Follow',
    actor: peer.actorId('mallory'),
    object: site.actorId,
  };
  expect((await postToInbox({}, JSON.stringify(follow))).status).toBe(401);
  // Signed with a key that is not the actor's.
  const forged = forgedSignature(`${peer.actorId('mallory')}#main-key`);
  const date = new Date().toUTCString();
  expect(
    (await postToInbox({ Signature: forged, Date: date }, JSON.stringify(follow))).status,
  ).toBe(401);
  // A key no server answers for.
  const unknown = forged.replace(peer.origin, 'https://127.0.0.1:9');
  expect(
    (await postToInbox({ Signature: unknown, Date: date }, JSON.stringify(follow))).status,
  ).toBe(401);
  const big = JSON.stringify({ ...follow, padding: 'x'.repeat(300 * 1024) });
  expect((await postToInbox({ Signature: forged, Date: date }, big)).status).toBe(413);
  for (const junk of ['{not json', '[]', '{"@context": 5, "type": []}', '"text"']) {
    const res = await postToInbox({ Signature: forged, Date: date }, junk);
    expect(res.status, junk).toBeGreaterThanOrEqual(400);
    expect(res.status, junk).toBeLessThan(500);
  }
  expect(await followersCount()).toBe(1);
});

test('validly signed activities that name other hosts’ objects, or junk JSON-LD, are refused with 4xx; nothing changes', async () => {
  const inbox = `${site.actorId}/inbox`;
  const mallory = peer.actorId('mallory');
  const alice = peer.actorId('alice');
  const elsewhere = 'https://elsewhere.example';
  const cases: [string, unknown, number][] = [
    [
      'an actor on another host',
      { type: 'Follow', actor: `${elsewhere}/users/x`, object: site.actorId },
      401,
    ],
    [
      'a Follow of another server’s account',
      { id: `${mallory}#f1`, type: 'Follow', actor: mallory, object: `${elsewhere}/users/y` },
      400,
    ],
    [
      'an activity id on another host',
      { id: `${elsewhere}/follows/1`, type: 'Follow', actor: mallory, object: site.actorId },
      400,
    ],
    [
      'a Delete of the site’s actor',
      { id: `${mallory}#d1`, type: 'Delete', actor: mallory, object: site.actorId },
      400,
    ],
    [
      'an Update of another host’s note',
      {
        id: `${mallory}#u1`,
        type: 'Update',
        actor: mallory,
        object: { id: `${elsewhere}/notes/1`, type: 'Note', content: '<script>x</script>' },
      },
      400,
    ],
    [
      'an Undo of a follow made on another host',
      {
        id: `${mallory}#undo1`,
        type: 'Undo',
        actor: mallory,
        object: {
          id: `${elsewhere}/follows/9`,
          type: 'Follow',
          actor: alice,
          object: site.actorId,
        },
      },
      400,
    ],
  ];
  const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
  const answered: [string, number][] = [];
  for (const [what, body] of cases) {
    const res = await peer.post('mallory', inbox, { '@context': AS_CONTEXT, ...(body as object) });
    answered.push([what, res.status]);
  }
  expect(answered).toEqual(cases.map(([what, , status]) => [what, status]));
  // Signed, but not JSON-LD anyone can read: Fedify refuses it, never a 5xx.
  for (const junk of [
    '{not json',
    JSON.stringify({ '@context': 5, type: 'Follow', actor: mallory, object: site.actorId }),
    JSON.stringify({
      '@context': `${elsewhere}/no-such-context`,
      type: 'Follow',
      actor: mallory,
      object: site.actorId,
    }),
    JSON.stringify({ type: 'Follow', actor: { id: mallory, inbox: 5 }, object: [{}] }),
  ]) {
    const res = await peer.post('mallory', inbox, junk);
    expect(res.status, junk).toBeGreaterThanOrEqual(400);
    expect(res.status, junk).toBeLessThan(500);
  }
  // Still one follower (alice); the actor still answers.
  expect(await followersCount()).toBe(1);
  expect((await fetch(`${site.server.url}/fediverse/site`, { headers: AS })).status).toBe(200);
  // The same key, well used, is heard: the control case.
  const ok = await peer.post('mallory', inbox, {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${mallory}#like1`,
    type: 'Like',
    actor: mallory,
    object: site.actorId,
  });
  expect(ok.status).toBe(202);
});

test('a host past its rate limit gets 429 with Retry-After, and other hosts are still heard', async () => {
  // A host whose key cannot be fetched (nothing listens on port 9), posting junk: each post
  // refused as such (400) until the host's posts pass the limit, counted before anything else.
  const post = (host: string) =>
    postToInbox(
      {
        Signature: forgedSignature(`https://${host}/users/x#main-key`),
        Date: new Date().toUTCString(),
      },
      '{}',
    );
  const statuses: number[] = [];
  for (let i = 0; i < HOST_LIMIT; i++) statuses.push((await post('127.0.0.2:9')).status);
  expect(new Set(statuses)).toEqual(new Set([400]));
  const refused = await post('127.0.0.2:9');
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await post('127.0.0.3:9')).status).toBe(400);
});

test('after Undo(Follow) the follower is gone', async () => {
  await peer.unfollow('alice');
  await waitFor(followersCount, (n) => n === 0);
});

test('a blocked domain is refused (403) and blocking removes its follows; unblocked, it may follow again', async () => {
  await peer.follow('bob', site.handle);
  await waitFor(
    () => acceptsFor('bob'),
    (list) => list.length === 1,
  );
  expect(await followersCount()).toBe(1);

  const blocked = await adminPost({ intent: 'block-domain', domain: '127.0.0.1' });
  expect(blocked.status).toBe(302);
  expect(await followersCount()).toBe(0);
  await expect(peer.follow('carol', site.handle)).rejects.toThrow(/403/);
  expect(await followersCount()).toBe(0);

  const refused = await adminPost({ intent: 'block-domain', domain: 'not a domain' });
  expect(refused.status).toBe(400);
  expect(await refused.text()).toContain('Enter a domain such as mastodon.example');

  expect((await adminPost({ intent: 'unblock', kind: 'domain', value: '127.0.0.1' })).status).toBe(
    302,
  );
  await peer.follow('carol', site.handle);
  await waitFor(
    () => acceptsFor('carol'),
    (list) => list.length === 1,
  );
  await peer.unfollow('carol');
  await waitFor(followersCount, (n) => n === 0);
});

test('a follower down for a minute gets its Accept and what was published meanwhile, once each, when it is back', async () => {
  test.setTimeout(240_000);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // Half a minute its inboxes answer 503, half a minute its server refuses connections.
  await peer.setDown(true);
  await peer.follow('dora', site.handle);
  await waitFor(followersCount, (n) => n === 1);
  const created = await fetch(`${site.server.url}/api/admin/shows`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: site.server.url, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: 'Fedi night while down',
      venue: 'The Pier',
      location: 'Asbury Park, NJ',
      date: '2031-09-01',
      time: '9:00 PM',
    }),
  });
  expect(created.status).toBe(201);
  const showUrl = `${site.origin}/shows/${((await created.json()) as { id: number }).id}`;
  const arrived = async () =>
    (await peer.received()).filter(
      (a) => (a.type === 'Accept' && a.recipient === 'dora') || a.object === showUrl,
    );
  await sleep(30_000);
  await peer.proxy.close();
  await sleep(30_000);
  expect(await arrived()).toHaveLength(0);
  await peer.proxy.reopen();
  await peer.setDown(false);
  // Retries double from a second: the next one comes at most about a minute after it is back.
  await waitFor(arrived, (list) => list.length >= 2, 120_000);
  await sleep(2000);
  expect((await arrived()).map((a) => a.type).sort()).toEqual(['Accept', 'Create']);
});
