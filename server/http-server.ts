/**
 * The Night Shore HTTP server: Express with compression and the static files, as remix-serve
 * sets them up, around the Remix build, plus the request bookkeeping remix-serve gives no
 * place for (docs/decisions/013-own-server-module.md).
 *
 *   node build/server.js [build/index.js]     (compiled by scripts/build-server.mjs)
 *   node --import tsx server/index.ts [build/index.js]
 *
 * (`npm start` builds when the sources changed, then runs the first.) Environment: PORT (default
 * 3000, or a free port when 3000 is taken and PORT is unset), HOST (default: every
 * interface), NODE_ENV (default production); the app's own variables are read by the build.
 *
 * Order of the middleware, for every request:
 * 1. `trackRequest` (from the build): request id, client address, base security headers,
 *    one JSON log line, the in-flight count, dropping a body left unread by an early answer;
 * 2. `guardRequest` (from the build): the trust boundary, an unknown Host is a 400 and a
 *    state change from another site a 403 (docs/decisions/028-trust-boundary.md);
 * 3. a path with malformed percent-encoding is a 400;
 * 3b. `handleResumableUpload` (from the build): tus at /api/admin/uploads (decision 036);
 * 4. compression; 4b. `serveFederation` (from the build): the fediverse actor, WebFinger,
 *    NodeInfo, inboxes and ActivityStreams answers, in front of everything else (decision 053);
 *    5. `public/build` (fingerprinted: immutable, 1 year; its fonts to any
 *    origin, for the embed); 6. `public/` (1 hour);
 * 7. `serveMedia` (from the build): images and public audio under /uploads straight from the
 *    media store; 8. `servePage` (from the build): anonymous public pages from the page cache
 *    (docs/decisions/039-anonymous-pages-near-static-speed.md);
 * 9. Remix, through `answerAndRemember` (which keeps a public answer for the page cache), its
 *    answer written here with `setHeader` (a header the answer sets replaces the base one,
 *    never duplicates it);
 * 10. `answerError` (from the build): JSON `{ "error": … }` under /api, plain text elsewhere.
 *
 * Once listening, `serverListening` (from the build) learns the port, for the links the site
 * writes when SITE_URL is unset.
 *
 * SIGTERM/SIGINT: stop accepting connections, let `stopApp` (from the build) finish the
 * requests in flight and close the database, exit with its code. A second signal exits at once.
 * As a worker of `WEB_CONCURRENCY` (server/primary.ts), the primary's "shutdown" message does
 * the same, once.
 */
import cluster from 'node:cluster';
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  createReadableStreamFromReadable,
  createRequestHandler,
  type ServerBuild,
} from '@remix-run/node';
import compression from 'compression';
import express, { type NextFunction, type Request as ExpressRequest } from 'express';

import type * as EntryModule from '~/entry.server';

process.env.NODE_ENV ??= 'production';
const { logger } = await import('~/platform/logger.server');
// No source maps at run time (decision 040): the Remix build has none, and Node would parse and
// keep those of every package that ships one (about 10 MB). NODE_OPTIONS=--enable-source-maps
// turns them on.

/** What this server takes from the build's entry module (app/entry.server.tsx). */
type ServerHooks = Pick<
  typeof EntryModule,
  | 'trackRequest'
  | 'guardRequest'
  | 'answerError'
  | 'stopApp'
  | 'serverListening'
  | 'handleResumableUpload'
  | 'serveMedia'
  | 'servePage'
  | 'answerAndRemember'
  | 'serveFederation'
>;
const HOOKS = [
  'trackRequest',
  'guardRequest',
  'answerError',
  'stopApp',
  'serverListening',
  'handleResumableUpload',
  'serveMedia',
  'servePage',
  'answerAndRemember',
  'serveFederation',
];

const buildPath = path.resolve(process.argv[2] ?? 'build/index.js');
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
const hooks = build.entry.module as unknown as Partial<ServerHooks>;
if (HOOKS.some((name) => typeof hooks[name as keyof ServerHooks] !== 'function')) {
  logger.error(
    `${buildPath} does not export ${HOOKS.join(', ')} from ` +
      'app/entry.server.tsx: it was built from older sources. Run `npm run build`.',
  );
  process.exit(1);
}
const {
  trackRequest,
  guardRequest,
  answerError,
  stopApp,
  serverListening,
  serveMedia,
  servePage,
  answerAndRemember,
  handleResumableUpload,
  serveFederation,
} = hooks as ServerHooks;

const handleRemix = createRequestHandler(build, process.env.NODE_ENV);

function fetchHeaders(nodeHeaders: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(nodeHeaders)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** An error Express answers with its status (400: the request cannot be made a URL). */
class BadRequest extends Error {
  readonly status = 400;
}

/**
 * A method the route has no handler for. Remix answers it (a POST to a resource route with no
 * action) as a 405 whose body is its catch-all "Unexpected Server Error" (marked
 * `X-Remix-Error`); `answerError` writes "Method Not Allowed" instead (JSON under /api), with
 * the methods the route does answer.
 */
class MethodNotAllowed extends Error {
  readonly status = 405;
}

/** Remix's own 405 for a resource route (not a page's `?_data` request, which its client reads). */
const isRemixMethodRefusal = (url: string, response: Response) =>
  response.status === 405 &&
  response.headers.get('X-Remix-Error') === 'yes' &&
  !/[?&]_data=/.test(url);

/** The Fetch Request Remix reads, from the Node one (as @remix-run/express builds it). */
function remixRequest(req: ExpressRequest, res: ServerResponse): Request {
  let url: URL;
  try {
    url = new URL(`${req.protocol}://${req.headers.host ?? 'localhost'}${req.originalUrl}`);
  } catch {
    throw new BadRequest('The request has no valid URL.');
  }
  // Abort loaders and actions when the answer can no longer be written (closed unfinished).
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method,
    headers: fetchHeaders(req.headers),
    signal: controller.signal,
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * Write a Remix answer. `setHeader`, not `append`: a header the answer sets (a document's
 * own X-Frame-Options…) replaces the base one `trackRequest` set, so none appears twice.
 */
async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const name of new Set(response.headers.keys())) {
    if (name === 'set-cookie') res.setHeader(name, response.headers.getSetCookie());
    else res.setHeader(name, response.headers.get(name) ?? '');
  }
  if (/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) res.flushHeaders();
  if (response.body) await writeBody(response.body, res);
  else res.end();
}

/** Resolves once `res` takes more (`drain`) or will take nothing more (`close`). */
function drained(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Remix's `writeReadableStreamToWritable`, with backpressure: the next chunk is read only when
 * the connection has taken the last one, so a long streamed answer (an /api list, decision 045)
 * to a slow client waits for it instead of piling up in memory; a client gone away cancels the
 * stream (which closes its database cursor). Flushed per chunk, as Remix does, for compression.
 */
async function writeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const flushable = res as ServerResponse & { flush?: () => void };
  try {
    for (;;) {
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) break;
      const more = res.write(value);
      flushable.flush?.();
      if (!more) await drained(res);
    }
    res.end();
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

const app = express();
app.disable('x-powered-by');
app.use(trackRequest);
app.use(guardRequest);
// A path that is not valid percent-encoding names nothing: 400, JSON under /api
// (answerError). Express would answer its own HTML page; Remix would log a warning.
app.use((req: ExpressRequest, _res: ServerResponse, next: NextFunction) => {
  try {
    decodeURIComponent(req.path);
  } catch {
    next(new BadRequest('The URL is not valid percent-encoding.'));
    return;
  }
  next();
});
// Resumable uploads (tus, decision 036): /api/admin/uploads, after the trust boundary and
// before compression (tus answers are tiny; its PATCH bodies go to disk as they stream).
app.use(handleResumableUpload);
app.use(compression());
// The fediverse (decision 053): only a path that can be ActivityPub's, or a request asking for
// ActivityStreams JSON, reaches Fedify; anything it does not answer goes on.
app.use(serveFederation);
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, {
    immutable: true,
    maxAge: '1y',
    // Fonts are fetched in CORS mode: the embed player (decision 038), framed by other sites
    // in a sandbox with an opaque origin, loads the theme's fonts from here.
    setHeaders: (res, file) => {
      if (file.endsWith('.woff2')) res.setHeader('Access-Control-Allow-Origin', '*');
    },
  }),
);
app.use(express.static('public', { maxAge: '1h' }));
app.use(serveMedia);
app.use(servePage);
// `use`, not `all('*')`: no path parameter for Express to decode.
app.use((req: ExpressRequest, res: ServerResponse, next: NextFunction) => {
  (async () => {
    const response = await answerAndRemember(req, () => handleRemix(remixRequest(req, res)));
    if (isRemixMethodRefusal(req.originalUrl, response)) {
      await response.body?.cancel();
      res.setHeader('Allow', 'GET, HEAD');
      throw new MethodNotAllowed('Method Not Allowed');
    }
    await sendResponse(res, response);
  })().catch(next);
});
app.use(answerError);

const host = process.env.HOST || undefined;
const portFromEnv = Number.parseInt(process.env.PORT ?? '', 10);
const listen = (port: number) => (host ? server.listen(port, host) : server.listen(port));
const server = http.createServer(app);
// An idle keep-alive connection is kept for 65 s, not Node's 5 s: a client (a browser, a load
// balancer with the usual 60 s idle timeout, a test's HTTP client) that sends on a connection
// the server is closing at that moment gets a reset instead of an answer (a lost POST). The
// `Keep-Alive: timeout=65` header tells clients to give it up a little earlier; a busy event
// loop that delays either side made that race common at 5 s. Headers must still arrive within
// a timeout longer than the idle one (Node checks it against it).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
listen(Number.isNaN(portFromEnv) ? 3000 : portFromEnv);

server.on('listening', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const lan = Object.values(os.networkInterfaces())
    .flat()
    .find((ip) => ip?.family === 'IPv4' && !ip.internal)?.address;
  serverListening(port);
  const worker = cluster.isWorker ? ` (worker ${cluster.worker?.id}, pid ${process.pid})` : '';
  // Another device on the network reaches it by address only once that address is an allowed
  // host (the trust boundary refuses unknown hosts, decision 028).
  const lanAllowed = (process.env.ALLOWED_HOSTS ?? '').split(',').some((h) => h.trim() === lan);
  const lanHint =
    host || !lan
      ? ''
      : lanAllowed
        ? ` (http://${lan}:${port})`
        : ` (from other devices: ALLOWED_HOSTS=${lan}, then http://${lan}:${port})`;
  logger.info(`http://localhost:${port}${lanHint}${worker}`);
});
server.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE' && Number.isNaN(portFromEnv)) {
    // Like remix-serve: without PORT, a taken 3000 means any free port.
    listen(0);
    return;
  }
  logger.error(`the server cannot listen: ${error.message}`);
  process.exit(1);
});

let stopping = false;
function stop(signal: NodeJS.Signals): void {
  if (stopping) process.exit(1);
  stopping = true;
  // No new connections (idle keep-alive ones close); the requests in flight go on.
  server.close();
  void stopApp(signal).then((code) => process.exit(code));
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// A worker of server/primary.ts: the primary asks for the same graceful stop (a terminal's
// Ctrl-C may also have reached this process: the message then changes nothing).
process.on('message', (message) => {
  if (message === 'shutdown' && !stopping) stop('SIGTERM');
});
