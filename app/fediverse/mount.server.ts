import type { IncomingMessage, ServerResponse } from 'node:http';

import { varyWithAccept, wantsActivityStreams } from '~/document/negotiation.server';
import { viewedRequest } from '~/document/page-cache.server';
import { isBlocked } from '~/models/fediverse-block.server';
import { logger } from '~/platform/logger.server';
import { consumeFediverseHostLimit } from '~/platform/rate-limit.server';
import { siteOrigin } from '~/platform/site-origin.server';

import { activityActor, refuseForeignObjects } from './activity-hosts.server';
import { getFederation } from './federation.server';
import { addressing } from './items.server';
import { answerTombstone } from './objects.server';

/**
 * Fedify in front of Remix (server/http-server.ts, decision 053): a request reaches
 * `federation.fetch` only when it can be an ActivityPub one (the paths below, or an Accept that
 * asks for ActivityStreams JSON: `wantsActivityStreams`), so a page view costs a regular
 * expression and a look at its Accept header. What Fedify does
 * not answer (`onNotFound`, `onNotAcceptable`: a browser on the actor's URL) goes on to Remix.
 *
 * Before Fedify reads a post to an inbox: no signature is a 401; a host past its rate limit a
 * 429; a blocked domain or actor (the signing key's, or the body's `actor`) a 403; a body over
 * INBOX_MAX_BYTES a 413; an actor on another host than the key's a 401, and an activity naming
 * other hosts' objects a 400 (activity-hosts.server.ts). Fedify then verifies the signature (a
 * bad one, or a key it cannot fetch, is a 401) and answers junk with a 400.
 */
export const INBOX_MAX_BYTES = 256 * 1024;

const OWN_PATHS = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)|nodeinfo\/|fediverse\/)/;
const INBOX_PATH = /^\/fediverse\/(?:inbox|[^/]+\/inbox)$/;

/** Not answered here: the next middleware (Remix) answers. */
const NOT_HANDLED = new Response(null, { status: 404 });

type Next = (error?: unknown) => void;

export function federationMiddleware(req: IncomingMessage, res: ServerResponse, next: Next) {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return next();
  if (!OWN_PATHS.test(path) && !wantsActivityStreams(req.headers.accept)) return next();
  answer(req, res, url, path, method).then(
    (answered) => {
      if (!answered) next();
    },
    (error: unknown) => {
      if (res.headersSent) res.destroy();
      else next(error);
    },
  );
}

function refuse(res: ServerResponse, status: number, message: string, headers = {}): true {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(`${message}\n`);
  return true;
}

/** The key id a signed request names (draft-cavage `Signature` or RFC 9421 `Signature-Input`). */
function signingKeyId(req: IncomingMessage): URL | null {
  const header = [req.headers.signature, req.headers['signature-input']]
    .flat()
    .filter((v): v is string => typeof v === 'string')
    .join(',');
  const keyId = /keyid="([^"]{1,2048})"/i.exec(header)?.[1];
  if (!keyId) return null;
  try {
    const parsed = new URL(keyId);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed : null;
  } catch {
    return null;
  }
}

/** The body, or 'too-large' past `max` bytes. */
async function readCapped(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return 'too-large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return 'too-large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The body as JSON, or undefined when it is not JSON (Fedify answers that with a 400). */
function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Refusals before Fedify reads an inbox post; the body when it may go on. */
async function guardInbox(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> {
  const keyId = signingKeyId(req);
  if (!keyId) return refuse(res, 401, 'The request is not signed.') && null;
  const host = keyId.host.toLowerCase();
  const limit = await consumeFediverseHostLimit(host, viewedRequest(req));
  if (!limit.ok) {
    return (
      refuse(res, 429, 'Too many requests.', {
        'Retry-After': String(limit.retryAfterSeconds),
      }) && null
    );
  }
  const signer = new URL(keyId);
  signer.hash = '';
  if (await isBlocked(signer, host)) return refuse(res, 403, 'Blocked.') && null;
  const body = await readCapped(req, INBOX_MAX_BYTES);
  if (body === 'too-large') return refuse(res, 413, 'The body is too large.') && null;
  const json = parsed(body);
  const actor = activityActor(json);
  if (actor && (await isBlocked(actor, actor.host))) return refuse(res, 403, 'Blocked.') && null;
  const foreign = refuseForeignObjects(json, host, addressing().actor.href);
  if (foreign) return refuse(res, foreign.status, foreign.message) && null;
  return body;
}

function fetchHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  path: string,
  method: string,
): Promise<boolean> {
  let body: Buffer | undefined;
  if (method === 'POST') {
    if (!INBOX_PATH.test(path)) return false;
    const guarded = await guardInbox(req, res);
    if (!guarded) return true;
    body = guarded;
  }
  let request: Request;
  try {
    request = new Request(new URL(url, siteOrigin()), {
      method,
      headers: fetchHeaders(req),
      body: body ? new Uint8Array(body) : undefined,
    });
  } catch {
    return false;
  }
  let response: Response;
  try {
    response = await getFederation().fetch(request, {
      contextData: { requestFromPeer: true },
      onNotFound: async (r) => (await answerTombstone(r)) ?? NOT_HANDLED,
      onNotAcceptable: () => NOT_HANDLED,
    });
  } catch (error) {
    if (method !== 'POST') throw error;
    // Junk Fedify could not make sense of (not our failure): refused, nothing stored.
    logger.warn({ err: error, path }, 'fediverse: an inbox post could not be read');
    return refuse(res, 400, 'The activity could not be read.');
  }
  if (response === NOT_HANDLED) return false;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (!response.headers.has('cache-control')) headers['cache-control'] = 'no-store';
  // The same URL answers HTML to a browser (through Remix).
  if (method !== 'POST') headers.vary = varyWithAccept(response.headers.get('vary'));
  res.writeHead(response.status, headers);
  res.end(method === 'HEAD' ? undefined : Buffer.from(await response.arrayBuffer()));
  return true;
}
