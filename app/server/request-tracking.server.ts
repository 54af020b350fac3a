import crypto from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { env } from './env.server';
import { baseSecurityHeaders } from '~/document/security-headers.server';

/**
 * Per-request bookkeeping for the whole HTTP server, hooked in through Node's built-in
 * `http.server.request.start` diagnostics channel (remix-serve gives the Remix app no
 * access to its Express app or sockets; see docs/decisions/008-request-tracking-and-abuse-limits.md):
 *
 * - a request id (`X-Request-Id` on every answer, readable by Remix as a request header);
 * - the client address: the socket's, or the last `X-Forwarded-For` hop with
 *   TRUST_PROXY=true, handed to Remix as the `x-night-shore-client-ip` request header
 *   (any value a client sent under that name is overwritten);
 * - the base security headers on every answer, static files and resource routes included;
 * - one JSON log line per request (time, method, path without query, status, ms, id);
 * - the number of requests in flight, which graceful shutdown waits for.
 */

export const REQUEST_ID_HEADER = 'x-request-id';
export const CLIENT_IP_HEADER = 'x-night-shore-client-ip';

type StartMessage = { request: IncomingMessage; response: ServerResponse };

type TrackerState = {
  installed: boolean;
  inFlight: number;
  idle: Set<() => void>;
};

declare global {
  var __nightShoreTracker: TrackerState | undefined;
}

const state: TrackerState = (globalThis.__nightShoreTracker ??= {
  installed: false,
  inFlight: 0,
  idle: new Set(),
});

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

/** The path to log: no query string (it may carry tokens or personal data), bounded. */
export function loggablePath(url: string | undefined): string {
  const raw = (url ?? '/').split('?')[0] ?? '/';
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

/** Base headers a later Remix `res.append` must replace rather than duplicate. */
const OWNED_HEADERS = new Set(baseSecurityHeaders().map(([name]) => name.toLowerCase()));

const MAX_DISCARD = 16 * 1024 * 1024;

type AppendFn = (this: ServerResponse, field: string, value: string | string[]) => ServerResponse;

function onRequestStart(message: unknown) {
  const { request, response } = message as StartMessage;
  const started = performance.now();
  const id = newRequestId();
  // Remix builds its Request from these headers: overwrite whatever the client sent.
  request.headers[REQUEST_ID_HEADER] = id;
  request.headers[CLIENT_IP_HEADER] = clientAddress(
    request.socket?.remoteAddress,
    request.headers['x-forwarded-for'],
    env.TRUST_PROXY,
  );
  response.setHeader('X-Request-Id', id);
  for (const [name, value] of baseSecurityHeaders()) response.setHeader(name, value);
  // Express appends the headers of a Remix Response; ours must not appear twice. Express
  // swaps the response's prototype later, so look `append` up when it is called.
  const ownAppend: AppendFn = function (this: ServerResponse, field, value) {
    if (OWNED_HEADERS.has(field.toLowerCase())) {
      this.setHeader(field, value);
      return this;
    }
    const inherited = (Object.getPrototypeOf(this) as { append?: AppendFn }).append;
    if (!inherited) {
      this.appendHeader(field, value);
      return this;
    }
    return inherited.call(this, field, value);
  };
  Object.defineProperty(response, 'append', {
    value: ownAppend,
    configurable: true,
    writable: true,
  });

  // An answer sent before the whole body was read (413, 415, 401…): keep reading and
  // dropping the rest, so the client receives the answer instead of a connection reset
  // (closing a socket with unread data makes the kernel send RST). Capped: past
  // MAX_DISCARD the connection is cut.
  response.once('finish', () => {
    if (request.complete || request.destroyed) return;
    let discarded = 0;
    // Remix's body pump pauses the request once its unread queue is full: detach it.
    request.removeAllListeners('data');
    request.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARD) request.socket?.destroy();
    });
    request.resume();
  });

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
      path: loggablePath(request.url),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      requestId: id,
    };
    if (!response.writableFinished) line.aborted = true;
    process.stdout.write(`${JSON.stringify(line)}\n`);
  });
}

/** remix-serve's morgan 'tiny' line: `GET /path?query 200 123 - 4.567 ms`. */
const MORGAN_TINY = /^[A-Z]{3,7} \S* (\d{3}|-) \S* - \S+ ms\n$/;

/**
 * remix-serve also logs every request with morgan 'tiny', query string included (tokens,
 * e-mail addresses…). Our JSON line replaces it, so those lines are dropped from stdout.
 */
function silenceMorgan(): void {
  const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
  const filtered = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (typeof chunk === 'string' && MORGAN_TINY.test(chunk)) {
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }
    return write(chunk, ...rest);
  };
  process.stdout.write = filtered as typeof process.stdout.write;
}

/** Start tracking every request of this process's HTTP servers (idempotent). */
export function installRequestTracking(): void {
  if (state.installed) return;
  state.installed = true;
  diagnostics.subscribe('http.server.request.start', onRequestStart);
  silenceMorgan();
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

/** Log an error as one JSON line with the request's id. No stack in the answer, ever. */
export function logError(error: unknown, request: Request | null, context: string): void {
  if (env.LOG_LEVEL === 'silent') return;
  const err = error instanceof Error ? error : new Error(String(error));
  const line = {
    time: new Date().toISOString(),
    level: 'error',
    msg: context,
    requestId: request ? requestIdOf(request) : '',
    method: request?.method,
    path: request ? loggablePath(new URL(request.url).pathname) : undefined,
    error: err.message,
    stack: err.stack,
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
