import crypto from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { env } from './env.server';
import { DISCARD_LIMIT } from './request-body.server';
import { baseSecurityHeaders } from '~/document/security-headers.server';

/**
 * Per-request bookkeeping of the HTTP server. `trackRequest` is the first middleware of our
 * server module (server/index.ts, which takes it from the build's entry module; see
 * docs/decisions/013-own-server-module.md). For every request, static files included, it:
 *
 * - gives a request id (`X-Request-Id` on every answer, and the `x-request-id` request
 *   header Remix reads; any value a client sent under that name is overwritten);
 * - records the client address: the socket's, or the last `X-Forwarded-For` hop with
 *   TRUST_PROXY=true, in the `x-night-shore-client-ip` request header (overwritten too);
 * - sets the base security headers (an answer that sets one itself replaces it: the
 *   server writes Remix answers with `setHeader`, never `append`);
 * - writes one JSON log line per request (time, method, path without query, status, ms, id);
 * - counts the requests in flight, which graceful shutdown waits for;
 * - after an answer sent before the body was read, reads and drops the rest (up to 16 MB).
 *
 * `answerError` is the server's last middleware: whatever Express or a middleware fails
 * with becomes JSON `{ "error": … }` under /api and a plain text answer elsewhere, never a
 * stack trace.
 */

export const REQUEST_ID_HEADER = 'x-request-id';
export const CLIENT_IP_HEADER = 'x-night-shore-client-ip';

/** Express-style continuation: `next()` or `next(error)`. */
export type Next = (error?: unknown) => void;

const state = { inFlight: 0, idle: new Set<() => void>() };

export const newRequestId = () => crypto.randomBytes(9).toString('base64url');

/** The client address of a Node request, honouring TRUST_PROXY. */
export function clientAddress(
  remoteAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy && forwardedFor) {
    const list = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const last = list.at(-1);
    if (last) return last.slice(0, 64);
  }
  return (remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
}

/**
 * Routes whose last path segment is a link token (a signed capability sent by email): the
 * log writes `[token]` in its place. Anyone who reads the log must not be able to follow
 * the links (docs/decisions/028-trust-boundary.md).
 */
const TOKEN_PATHS = [
  /^(\/unsubscribe\/)[^/]+/,
  /^(\/newsletter\/confirm\/)[^/]+/,
  /^(\/account\/verify-email\/)[^/]+/,
];

/** The path to log: no query string, no link token (they are capabilities), bounded. */
export function loggablePath(url: string | undefined): string {
  let raw = (url ?? '/').split('?')[0] ?? '/';
  for (const pattern of TOKEN_PATHS) raw = raw.replace(pattern, '$1[token]');
  return raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
}

export type RequestLogLine = {
  time: string;
  level: 'info' | 'error';
  msg: 'request';
  method: string;
  path: string;
  status: number;
  ms: number;
  requestId: string;
  aborted?: boolean;
};

function shouldLog(status: number): boolean {
  if (env.LOG_LEVEL === 'silent') return false;
  if (env.LOG_LEVEL === 'error') return status >= 500;
  return true;
}

/**
 * An answer sent before the whole body was read (413, 415, 401…): keep reading and dropping
 * the rest, so the client receives the answer instead of a connection reset (closing a
 * socket with unread data makes the kernel send RST). Past DISCARD_LIMIT the connection is cut.
 */
function discardUnreadBody(request: IncomingMessage): void {
  if (request.complete || request.destroyed) return;
  let discarded = 0;
  // Remix's body stream stops pulling once its queue is full: detach it, we read from here.
  request.removeAllListeners('data');
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT) request.socket?.destroy();
  });
  request.resume();
}

/** The server's first middleware (see the top of this file). */
export function trackRequest(request: IncomingMessage, response: ServerResponse, next: Next): void {
  const started = performance.now();
  const id = newRequestId();
  // Express rewrites `request.url` inside mounted middleware: take the path now.
  const path = loggablePath(request.url);
  // Remix builds its Request from these headers: overwrite whatever the client sent.
  request.headers[REQUEST_ID_HEADER] = id;
  request.headers[CLIENT_IP_HEADER] = clientAddress(
    request.socket?.remoteAddress,
    request.headers['x-forwarded-for'],
    env.TRUST_PROXY,
  );
  response.setHeader('X-Request-Id', id);
  for (const [name, value] of baseSecurityHeaders()) response.setHeader(name, value);

  response.once('finish', () => discardUnreadBody(request));

  state.inFlight += 1;
  response.once('close', () => {
    state.inFlight -= 1;
    if (state.inFlight === 0) for (const resolve of state.idle) resolve();
    const status = response.statusCode;
    if (!shouldLog(status)) return;
    const line: RequestLogLine = {
      time: new Date().toISOString(),
      level: status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: request.method ?? 'GET',
      path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      requestId: id,
    };
    if (!response.writableFinished) line.aborted = true;
    process.stdout.write(`${JSON.stringify(line)}\n`);
  });
  next();
}

/** An HTTP status carried by an error (Express and its middleware set `status`), else 500. */
function statusOf(error: unknown): number {
  if (typeof error === 'object' && error !== null) {
    const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
    const value = typeof status === 'number' ? status : statusCode;
    if (typeof value === 'number' && value >= 400 && value <= 599) return value;
  }
  return 500;
}

/** True for the JSON surface, whose every answer is `{ "error": … }` when it fails. */
export const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * The server's last middleware: an error no route answered (a request Remix cannot be
 * handed, a failing middleware). 4xx keep their status with its standard message; anything
 * else is logged on stderr with the request id and answered 500 without details.
 */
export function answerError(
  error: unknown,
  request: IncomingMessage & { originalUrl?: string },
  response: ServerResponse,
  _next: Next,
): void {
  const status = statusOf(error);
  const requestId = String(request.headers[REQUEST_ID_HEADER] ?? '');
  const path = loggablePath(request.originalUrl ?? request.url);
  if (status >= 500) {
    writeErrorLine(error, 'unhandled server error', { requestId, method: request.method, path });
  }
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const message = status >= 500 ? 'Something went wrong' : (STATUS_CODES[status] ?? 'Bad Request');
  response.statusCode = status;
  response.setHeader('Cache-Control', 'no-store');
  if (isApiPath(path)) {
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.end(JSON.stringify({ error: message }));
    return;
  }
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.end(status >= 500 ? `${message}. Error reference: ${requestId}\n` : `${message}\n`);
}

export const requestsInFlight = () => state.inFlight;

/** Resolves when no request is in flight, or after `timeoutMs` (returns false then). */
export function waitForIdle(timeoutMs: number): Promise<boolean> {
  if (state.inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      state.idle.delete(onIdle);
      resolve(value);
    };
    const onIdle = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    state.idle.add(onIdle);
  });
}

/** The request id Remix code sees (set by the tracker; '' when not running under it). */
export function requestIdOf(request: Request): string {
  return request.headers.get(REQUEST_ID_HEADER) ?? '';
}

function writeErrorLine(
  error: unknown,
  context: string,
  where: { requestId: string; method?: string; path?: string },
): void {
  if (env.LOG_LEVEL === 'silent') return;
  const err = error instanceof Error ? error : new Error(String(error));
  const line = {
    time: new Date().toISOString(),
    level: 'error',
    msg: context,
    ...where,
    error: err.message,
    stack: err.stack,
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** A refused request worth an operator's attention (a host not served), on stderr. */
export function logWarning(
  request: IncomingMessage,
  message: string,
  details: Record<string, string>,
): void {
  if (env.LOG_LEVEL !== 'info') return;
  const line = {
    time: new Date().toISOString(),
    level: 'warn',
    msg: message,
    requestId: String(request.headers[REQUEST_ID_HEADER] ?? ''),
    method: request.method,
    path: loggablePath(request.url),
    ...details,
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** Log an error as one JSON line with the request's id. No stack in the answer, ever. */
export function logError(error: unknown, request: Request | null, context: string): void {
  writeErrorLine(error, context, {
    requestId: request ? requestIdOf(request) : '',
    method: request?.method,
    path: request ? loggablePath(new URL(request.url).pathname) : undefined,
  });
}
