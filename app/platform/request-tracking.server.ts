import crypto from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';

import type { Logger } from 'pino';

import { baseSecurityHeaders } from '~/document/security-headers.server';

import { env } from './env.server';
import { loggablePath, logger } from './logger.server';
import { DISCARD_LIMIT } from './request-body.server';

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
 * - logs one line per request through the site's logger (method, path, status, ms, id);
 * - counts the requests in flight, which graceful shutdown waits for;
 * - after an answer sent before the body was read, reads and drops the rest (see
 *   `discardUnreadBody`).
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

/** How long the client may go on sending after an early answer before the connection is cut. */
export const LINGER_MS = 2_000;

/**
 * An answer sent before the whole body was read (413, 415, 401…): keep reading and dropping
 * the rest, so the client receives the answer instead of a connection reset (closing a
 * socket with unread data makes the kernel send RST, and the client may lose the answer
 * still unread in its buffer). A rest within DISCARD_LIMIT is read to its end (the connection
 * stays usable). A bigger one (a 1 GB upload over its cap) is dropped for at least LINGER_MS
 * after the answer went out, as a web server's lingering close does: time for the client to
 * read the answer (browsers and HTTP libraries read while they send; most stop sending once
 * they have it) before the cut. A client that stops sending for LINGER_MS is cut too.
 */
function discardUnreadBody(request: IncomingMessage): void {
  if (request.complete || request.destroyed) return;
  const answered = Date.now();
  let discarded = 0;
  const cut = () => {
    if (!request.complete) request.socket?.destroy();
  };
  let idle = setTimeout(cut, LINGER_MS);
  // Remix's body stream stops pulling once its queue is full: detach it, we read from here.
  request.removeAllListeners('data');
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    clearTimeout(idle);
    if (discarded > DISCARD_LIMIT && Date.now() - answered >= LINGER_MS) cut();
    else idle = setTimeout(cut, LINGER_MS);
  });
  request.once('close', () => clearTimeout(idle));
  request.once('end', () => clearTimeout(idle));
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
  for (const [name, value] of baseSecurityHeaders(path)) response.setHeader(name, value);

  response.once('finish', () => discardUnreadBody(request));

  state.inFlight += 1;
  response.once('close', () => {
    state.inFlight -= 1;
    if (state.inFlight === 0) for (const resolve of state.idle) resolve();
    const status = response.statusCode;
    const line = {
      requestId: id,
      method: request.method ?? 'GET',
      path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...(response.writableFinished ? {} : { aborted: true }),
    };
    if (isFailure(status)) logger.error(line, 'request');
    else logger.info(line, 'request');
  });
  next();
}

/**
 * Whether an answer's status is the site's failure, logged at error level: a 5xx, but for 501
 * (Not Implemented), which is a deliberate answer to a request for what the site does not offer
 * (oEmbed's `format=xml`, decision 038), logged as the 4xx are.
 */
export const isFailure = (status: number): boolean => status >= 500 && status !== 501;

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
 * The one writer of an error answer for the Node middleware (the trust boundary, the tus
 * guard, `answerError`; Remix's answers have `apiError` in app/api/api.server.ts): under /api
 * JSON `{ "error": message }`, the JSON surface's shape (docs/api.md); elsewhere plain text,
 * `text` or the message on a line. Never cached; `headers` add to it (an `Allow`).
 */
export function writeErrorAnswer(
  response: ServerResponse,
  path: string,
  status: number,
  message: string,
  options: { text?: string; headers?: Record<string, string> } = {},
): void {
  response.statusCode = status;
  response.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    response.setHeader(name, value);
  }
  if (isApiPath(path)) {
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.end(JSON.stringify({ error: message }));
    return;
  }
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.end(options.text ?? `${message}\n`);
}

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
    logger.error({ err: error, requestId, method: request.method, path }, 'unhandled server error');
  }
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const message = status >= 500 ? 'Something went wrong' : (STATUS_CODES[status] ?? 'Bad Request');
  writeErrorAnswer(response, path, status, message, {
    text: status >= 500 ? `${message}. Error reference: ${requestId}\n` : undefined,
  });
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

/** A child of the site's logger carrying the request's id, method and path. */
export function requestLogger(request: Request): Logger {
  return logger.child({
    requestId: requestIdOf(request),
    method: request.method,
    path: new URL(request.url).pathname,
  });
}

/** A refused request worth an operator's attention (a host not served). */
export function logWarning(
  request: IncomingMessage,
  message: string,
  details: Record<string, string>,
): void {
  logger.warn(
    {
      requestId: String(request.headers[REQUEST_ID_HEADER] ?? ''),
      method: request.method,
      path: request.url,
      ...details,
    },
    message,
  );
}

/** Log an error with the request's id (its stack in the log, never in the answer). */
export function logError(error: unknown, request: Request | null, context: string): void {
  (request ? requestLogger(request) : logger).error({ err: error }, context);
}
