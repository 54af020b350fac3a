import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { DEFAULT_SITE_NAME } from '~/utils/seo/seo';

import { processSingleton } from './process-state.server';

/**
 * The site's configuration, parsed once at start. A wrong value fails the start
 * with the variable's name (see .env.example for every variable).
 */
const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z
  .string()
  .trim()
  .url()
  .or(z.literal(''))
  .transform((v) => v.replace(/\/+$/, ''));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  MONGODB_URI: z
    .string()
    .trim()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  SESSION_SECRET: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  UPLOADS_DIR: z.string().trim().min(1).default('./uploads'),
  // Where uploaded media live: 'disk' (UPLOADS_DIR) or 'gridfs' (MongoDB GridFS, bucket 'media').
  MEDIA_STORAGE: z.enum(['disk', 'gridfs']).default('disk'),
  // GridFS: MB of recently read chunks kept in memory per instance (0: none). A chunk never
  // changes under its file's id, so this is GridFS's page cache (decision 039). Unset: the
  // cache budget (CACHE_MB), decision 040.
  GRIDFS_CHUNK_CACHE_MB: z.coerce.number().int().min(0).max(4096).optional(),
  // MB the page cache and the render memo may hold together (half and a quarter of it); unset:
  // 1/16 of the memory the process may use (its container's limit, else the machine's), from 16
  // to 64 (decision 040, app/platform/memory.server.ts).
  CACHE_MB: z.coerce.number().int().min(1).max(4096).optional(),
  // The largest audio file an admin may upload, in MB, by the form or resumably (decision 036).
  MAX_AUDIO_MB: z.coerce.number().int().min(1).max(16_384).default(1024),
  ASSET_HOST: optionalUrl.default(''),
  SITE_URL: optionalUrl.default(''),
  // Host names the site answers for besides SITE_URL's and the loopback names: comma-separated,
  // `.example.com` for a domain and its subdomains (docs/decisions/028-trust-boundary.md).
  ALLOWED_HOSTS: z
    .string()
    .trim()
    .regex(
      /^(\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])?(\s*,\s*(\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\]))*$/,
      'must be host names separated by commas, without scheme or port (e.g. example.com,.example.org)',
    )
    .default(''),
  // Origins that may frame /embed/* (comma-separated, e.g. https://blog.example,https://forum.example);
  // empty: any site may (docs/decisions/038-embeds-and-oembed.md). Every other page refuses frames.
  EMBED_ALLOWED_ORIGINS: z
    .string()
    .trim()
    .regex(
      /^(https?:\/\/[A-Za-z0-9.-]+(:\d+)?)?(\s*,\s*https?:\/\/[A-Za-z0-9.-]+(:\d+)?)*$/,
      'must be origins separated by commas (e.g. https://blog.example,https://forum.example:8443)',
    )
    .default(''),
  SITE_NAME: z.string().trim().min(1).max(100).default(DEFAULT_SITE_NAME),
  CONTACT_EMAIL: z.string().trim().email().default('hello@nightshore.band'),
  CONTACT_PHONE: z.string().trim().min(3).max(40).default('(732) 555-0187'),
  CONTACT_ADDRESS: z
    .string()
    .trim()
    .min(3)
    .max(200)
    .default('700 Ocean Avenue, Asbury Park, NJ 07712'),
  SOCIAL_INSTAGRAM: optionalUrl.default('https://www.instagram.com/nightshore.band'),
  SOCIAL_TWITTER: optionalUrl.default('https://x.com/nightshoreband'),
  SOCIAL_YOUTUBE: optionalUrl.default('https://www.youtube.com/@nightshoreband'),
  SOCIAL_SPOTIFY: optionalUrl.default('https://open.spotify.com/artist/nightshore'),
  SOCIAL_SOUNDCLOUD: optionalUrl.default('https://soundcloud.com/nightshore'),
  SOCIAL_FACEBOOK: optionalUrl.default('https://www.facebook.com/nightshoreband'),
  SEED: booleanish.default('true'),
  // Count plays and visits (decision 024); false turns counting off (the benchmark compares).
  ANALYTICS: booleanish.default('true'),
  // Anonymous GETs of public pages from memory while the data version is unchanged (decision
  // 039); false renders every request (the benchmark compares).
  PAGE_CACHE: booleanish.default('true'),
  // The render memo (decision 010) for anonymous renders; false turns it off (the A/B of
  // `npm run bench:patches -- memo`, decision 051).
  RENDER_MEMO: booleanish.default('true'),
  // `Server-Timing: db;desc="…"` on every answer that reached a route: its database commands
  // and sequential round trips (the benchmark and tests read it; off in production).
  DB_ROUND_TRIP_HEADER: booleanish.default('false'),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  // Security and operations (proxy trust, rate limits, shutdown): see .env.example.
  TRUST_PROXY: booleanish.default('false'),
  RATE_LIMIT_LOGIN_PER_IP: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_LOGIN_PER_USER: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_REGISTER_PER_IP: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_CONTACT_PER_IP: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_SUBSCRIBE_PER_IP: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  // Email (docs/decisions/016-email-delivery.md): without SMTP_URL every message is written
  // to the outbox folder instead.
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/[^/\s]+/, 'must look like smtp://user:pass@host:587 or smtps://…')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(200).optional(),
  MAIL_OUTBOX_DIR: z.string().trim().min(1).optional(),
  /** Messages per minute over every instance; 0 means no cap. */
  MAIL_RATE_PER_MINUTE: z.coerce.number().int().min(0).default(0),
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(5),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  /** First retry after this many seconds, doubling with each attempt (capped at one hour). */
  MAIL_RETRY_SECONDS: z.coerce.number().min(0).default(60),
  /** A delivery claimed by an instance that stops answering is claimed again after this. */
  MAIL_LEASE_SECONDS: z.coerce.number().min(1).default(120),
  /** Media jobs (transcoding, peaks) this instance runs at once; each is a worker thread. */
  MEDIA_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  /** A media job claimed by an instance that stops answering is claimed again after this. */
  MEDIA_LEASE_SECONDS: z.coerce.number().min(1).default(60),
  MEDIA_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  /** First retry of a failed media job after this many seconds, doubling with each attempt. */
  MEDIA_RETRY_SECONDS: z.coerce.number().min(0).default(30),
  /**
   * Every media job's wall clock: this many seconds, plus …_PER_MB of its input, plus
   * …_PER_AUDIO_MINUTE of its audio; past it the job fails for good (decision 046).
   */
  MEDIA_TIME_LIMIT_SECONDS: z.coerce.number().min(1).default(60),
  MEDIA_TIME_LIMIT_SECONDS_PER_MB: z.coerce.number().min(0).default(0.5),
  MEDIA_TIME_LIMIT_SECONDS_PER_AUDIO_MINUTE: z.coerce.number().min(0).default(6),
  /** A media job's process may hold this much memory (RSS: heap, Buffers, WebAssembly). */
  MEDIA_MEMORY_LIMIT_MB: z.coerce.number().int().min(64).max(65536).default(384),
  /**
   * The fediverse actor's handle, `@HANDLE@host` (docs/fediverse.md). Unset: SITE_NAME in
   * lowercase, spaces and dashes as `_`, anything else but letters and digits dropped
   * (`Night Shore` → `night_shore`).
   */
  FEDIVERSE_HANDLE: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,30}$/, 'must be 1 to 30 lowercase letters, digits or _')
    .optional(),
  /** Let the actor talk to loopback and private addresses (tests only; off in production). */
  FEDIVERSE_ALLOW_PRIVATE_PEERS: booleanish.default('false'),
  /** A delivery not done after this many hours of retries is dropped (with a log line). */
  FEDIVERSE_DELIVERY_MAX_HOURS: z.coerce.number().min(0.001).max(720).default(24),
  /** First retry of a delivery after this many seconds, doubling (capped at one hour). */
  FEDIVERSE_RETRY_SECONDS: z.coerce.number().min(0.05).default(60),
  /** Deliveries in flight to one remote host over every instance. */
  FEDIVERSE_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Fediverse jobs (deliveries, inbox work) this instance runs at once. */
  FEDIVERSE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** A fediverse job claimed by an instance that stops answering is claimed again after this. */
  FEDIVERSE_LEASE_SECONDS: z.coerce.number().min(1).default(60),
  /** Posts a remote host may make to the inboxes per RATE_LIMIT_WINDOW_SECONDS. */
  RATE_LIMIT_FEDIVERSE_PER_HOST: z.coerce.number().int().min(1).default(600),
});

export type Env = z.infer<typeof EnvSchema> & { SESSION_SECRETS: string[] };

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable (FOO=) means "not set": its default applies.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const data = result.data;
  if (data.MONGODB_URI && data.NODE_ENV === 'production' && !data.SESSION_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  SESSION_SECRET: required when MONGODB_URI is set in production',
    );
  }
  return { ...data, SESSION_SECRETS: [] };
}

/**
 * SESSION_SECRET may hold several comma-separated secrets: the first signs, all verify
 * (rotation). Without one, on the embedded store, a secret is generated once and kept
 * in DATA_DIR so a first run needs nothing.
 */
function resolveSessionSecrets(e: Env): string[] {
  if (e.SESSION_SECRET) {
    return e.SESSION_SECRET.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  const dir = path.resolve(e.DATA_DIR);
  const file = path.join(dir, 'session-secret');
  try {
    return [fs.readFileSync(file, 'utf8').trim()];
  } catch {
    fs.mkdirSync(dir, { recursive: true });
    const secret = crypto.randomBytes(32).toString('hex');
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return [secret];
    } catch {
      // Another process created it first: use theirs.
      return [fs.readFileSync(file, 'utf8').trim()];
    }
  }
}

function load(): Env {
  // A .env file in the working directory is read when present; real environment
  // variables win over it.
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const e = parseEnv(process.env);
  e.SESSION_SECRETS = resolveSessionSecrets(e);
  return e;
}

declare module './process-state.server' {
  interface ProcessStateRegistry {
    env: Env;
  }
}

export const env: Env = processSingleton('env', load);

/** Absolute path of the uploads folder. */
export const uploadsDir = () => path.resolve(env.UPLOADS_DIR);
