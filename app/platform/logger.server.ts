import pino, { type DestinationStream, type Logger } from 'pino';

import { env } from './env.server';

/**
 * The one logger of the server (pino): JSON lines with `level`, `time`, `msg` and the fields
 * of the call, info and below on stdout, warnings and errors on stderr. Every module logs
 * through it (`logger`, or `requestLogger(request)` for a child that carries the request id);
 * nothing writes to the console on its own (`requestLogger` is in request-tracking.server.ts). LOG_LEVEL chooses the level (`silent` for none).
 *
 * What must never reach a log is taken out here, by configuration, not by each caller
 * (docs/decisions/028-trust-boundary.md): cookies, authorisation headers, passwords and
 * secrets are `[redacted]`, and the link tokens in paths (`/unsubscribe/…`,
 * `/newsletter/confirm/…`, `/account/verify-email/…`, `/podcast/private/…`) are written `[token]`. Query strings
 * are dropped from paths (they may carry tokens or personal data).
 *
 * In development (`npm run dev`) the lines are pretty-printed by pino-pretty, a development
 * dependency loaded only then.
 */

/**
 * Routes whose last path segment is a link token: a capability sent by email. Matched without
 * regard to case (the router matches paths that way) on the percent-decoded path.
 */
const TOKEN_PATHS = [
  /^(\/unsubscribe\/)[^/]+/i,
  /^(\/newsletter\/confirm\/)[^/]+/i,
  /^(\/account\/verify-email\/)[^/]+/i,
  // A member's private podcast feed, and the signature of its media URLs (decision 037).
  /^(\/podcast\/private\/)[^/]+/i,
  /^(\/podcast\/media\/[^/]+\/[^/]+\/)[^/]+/i,
];

/**
 * A path as the router reads it: every percent-encoded byte decoded (`/podcast/privat%65/…` is
 * `/podcast/private/…`). Byte by byte, so a malformed sequence elsewhere cannot stop it; a
 * decoded `/` only makes the path look deeper, which can only redact more.
 */
function decodedPath(path: string): string {
  let out = path;
  // Twice: `%2565` is `%65` to a second decoder; redacting what that would read costs nothing.
  for (let round = 0; round < 2 && out.includes('%'); round++) {
    out = out.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
  }
  return out;
}

const MAX_PATH = 200;

/** A path fit for the log: no query string, no link token, bounded. */
export function loggablePath(url: string | undefined): string {
  let path = (url ?? '/').split('?')[0] ?? '/';
  const decoded = decodedPath(path);
  if (TOKEN_PATHS.some((pattern) => pattern.test(decoded))) {
    path = decoded;
    for (const pattern of TOKEN_PATHS) path = path.replace(pattern, '$1[token]');
  }
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

/** Fields whose values are secrets wherever a caller puts them. */
export const REDACTED_PATHS = [
  'cookie',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
];

/** The options of the site's logger, apart from where it writes (tests use them too). */
export function loggerOptions(level: string): pino.LoggerOptions {
  return {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Paths pass through loggablePath whoever logs them (fields and child bindings alike).
    serializers: {
      path: (value: unknown) => (typeof value === 'string' ? loggablePath(value) : value),
    },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
}

/** Info and below on stdout, warn and above on stderr, each line once. */
function destination(): DestinationStream {
  return pino.multistream(
    [
      { level: 'trace', stream: process.stdout },
      { level: 'warn', stream: process.stderr },
    ],
    { dedupe: true },
  );
}

async function prettyDestination(): Promise<DestinationStream> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({ colorize: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' });
}

export const logger: Logger = pino(
  loggerOptions(env.LOG_LEVEL),
  env.NODE_ENV === 'development' ? await prettyDestination() : destination(),
);
