/**
 * A second, independent ActivityPub server for the fediverse tests (issue 40): a small Fedify
 * app of its own, run as its own process (so that NODE_EXTRA_CA_CERTS, read at start, trusts
 * the test's certificate) by tests/support/fediverse-peer.ts. It has any number of `Person`
 * actors (`/users/{name}`, each with its own RSA key pair made at start), personal inboxes and
 * a shared one that verify HTTP Signatures (Fedify's), and records every activity it accepts.
 *
 * Environment: PEER_PORT (plain HTTP on 127.0.0.1, behind the test's TLS proxy), PEER_ORIGIN
 * (the https origin its actors' ids use).
 *
 * Control API (plain HTTP, for the test only):
 * - `GET /control/received`: the activities received (JSON list);
 * - `POST /control/follow` `{ actor, handle }`: `actor` looks `handle` up by WebFinger and
 *   sends it a signed `Follow`; answers `{ followId, target }`;
 * - `POST /control/unfollow` `{ actor }`: sends `Undo(Follow)` for that actor's last follow;
 * - `POST /control/down` `{ down }`: while down, every post to an inbox answers 503;
 * - `POST /control/post` `{ actor, url, body }`: posts `body` (a string, sent as it is) to
 *   `url`, signed with `actor`'s key as Mastodon signs (draft-cavage, with a Digest); answers
 *   `{ status, text }` (the hostile tests: any body, validly signed).
 */
import crypto from 'node:crypto';
import http from 'node:http';

import {
  Activity,
  createFederation,
  Endpoints,
  Follow,
  generateCryptoKeyPair,
  isActor,
  MemoryKvStore,
  Person,
  Undo,
} from '@fedify/fedify';
import { signRequest } from '@fedify/fedify/sig';

const port = Number(process.env.PEER_PORT);
const origin = process.env.PEER_ORIGIN ?? `http://127.0.0.1:${port}`;

type Received = {
  recipient: string | null;
  type: string;
  id: string | null;
  actor: string | null;
  object: string | null;
  json: unknown;
  at: number;
};
const received: Received[] = [];
const keys = new Map<string, Promise<CryptoKeyPair>>();
const follows = new Map<string, { followId: string; target: string }>();
let down = false;

const keyPair = (name: string) => {
  let pair = keys.get(name);
  if (!pair) keys.set(name, (pair = generateCryptoKeyPair('RSASSA-PKCS1-v1_5')));
  return pair;
};

const federation = createFederation<void>({
  kv: new MemoryKvStore(),
  origin,
  allowPrivateAddress: true,
});

federation
  .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
    const [key] = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: `Peer ${identifier}`,
      inbox: ctx.getInboxUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: key?.cryptographicKey ?? null,
    });
  })
  .setKeyPairsDispatcher(async (_ctx, identifier) => [await keyPair(identifier)]);

federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(Activity, async (ctx, a) => {
  const object = a.objectId?.href ?? null;
  received.push({
    recipient: ctx.recipient,
    type: a.constructor.name,
    id: a.id?.href ?? null,
    actor: a.actorId?.href ?? null,
    object,
    json: await a.toJsonLd({ format: 'compact' }),
    at: Date.now(),
  });
});

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return chunks.length
    ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>)
    : {};
}

async function control(path: string, req: http.IncomingMessage): Promise<unknown> {
  const ctx = federation.createContext(new URL(origin), undefined);
  if (path === '/control/received') return received;
  const body = await readJson(req);
  if (path === '/control/down') {
    down = body.down === true;
    return { down };
  }
  const actor = String(body.actor ?? 'alice');
  if (path === '/control/post') {
    const [pair] = await ctx.getActorKeyPairs(actor);
    if (!pair) throw new Error(`no key for ${actor}`);
    const request = await signRequest(
      new Request(String(body.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/activity+json' },
        body: String(body.body),
      }),
      pair.privateKey,
      pair.keyId,
    );
    const res = await fetch(request);
    return { status: res.status, text: await res.text() };
  }
  if (path === '/control/follow') {
    const target = await ctx.lookupObject(String(body.handle));
    if (!isActor(target) || !target.id) throw new Error(`no actor for ${String(body.handle)}`);
    const followId = new URL(`/follows/${crypto.randomUUID()}`, origin);
    await ctx.sendActivity(
      { identifier: actor },
      target,
      new Follow({ id: followId, actor: ctx.getActorUri(actor), object: target.id }),
    );
    follows.set(actor, { followId: followId.href, target: target.id.href });
    return { followId: followId.href, target: target.id.href };
  }
  if (path === '/control/unfollow') {
    const follow = follows.get(actor);
    if (!follow) throw new Error(`${actor} follows nobody`);
    const target = await ctx.lookupObject(follow.target);
    if (!isActor(target)) throw new Error('the target is gone');
    await ctx.sendActivity(
      { identifier: actor },
      target,
      new Undo({
        id: new URL(`/undos/${crypto.randomUUID()}`, origin),
        actor: ctx.getActorUri(actor),
        object: new Follow({
          id: new URL(follow.followId),
          actor: ctx.getActorUri(actor),
          object: new URL(follow.target),
        }),
      }),
    );
    follows.delete(actor);
    return { ok: true };
  }
  throw new Error(`unknown control ${path}`);
}

const server = http.createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.startsWith('/control/')) {
      try {
        const result = await control(url.pathname, req);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(result));
      } catch (error) {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
      }
      return;
    }
    if (down && req.method === 'POST') {
      res.writeHead(503, { 'Content-Type': 'text/plain' });
      res.end('down for maintenance');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    }
    const response = await federation.fetch(
      new Request(url, {
        method: req.method,
        headers,
        body: chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined,
      }),
      { contextData: undefined },
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  })().catch((error: unknown) => {
    res.writeHead(500);
    res.end(String(error));
  });
});
server.listen(port, '127.0.0.1', () => console.log(`peer listening on ${port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
