import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';

import { uploadsDir } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';
import { RESUMABLE_UPLOADS_PATH } from '~/schemas/resumable-upload';

import { adoptFile, inspectFile, type StoredUpload, UPLOAD_LIMITS } from './uploads.server';

/**
 * Resumable audio uploads (tus 1.0, docs/decisions/036-resumable-uploads.md).
 *
 * `@tus/server` with `@tus/file-store` answers at RESUMABLE_UPLOADS_PATH on our own HTTP
 * server (the admin check in front of it is app/api/resumable-upload-endpoint.server.ts). Partial
 * files live in `UPLOADS_DIR/.tus/`: `<id>` (the bytes so far) and `<id>.json` (the tus record:
 * declared size, metadata, creation date). A dot folder is never served (`/uploads/*` answers
 * only `audio/` and `images/` keys), and it sits on the same disk as `UPLOADS_DIR/audio`, so a
 * finished upload becomes a track's file by a rename, never a 1 GB copy.
 *
 * Who started an upload is written into its record (`owner`, from the session, whatever the
 * client sent); only that admin may continue it or attach it to a track.
 *
 * One instance holds each partial file: a tus upload's PATCHes must reach the instance that
 * holds it (sticky routing or a shared volume for UPLOADS_DIR; see docs/deploy.md).
 */

export { RESUMABLE_UPLOADS_PATH };
/** A partial upload, or a finished one never attached to a track, is removed after this. */
export const RESUMABLE_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export const resumableUploadsDir = () => path.join(uploadsDir(), '.tus');

/** The ids we give (`namingFunction`: 16 random bytes in hex, as tus's default naming). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/**
 * Unfinished uploads (partial, or of deferred length) one admin may have at once, and the bytes
 * they may declare in all (four files at the audio cap); past either a creation is a 429 with
 * the reason. A deferred length counts as the audio cap.
 */
export type UploadCaps = { count: number; bytes: number };
export const defaultUploadCaps = (): UploadCaps => ({ count: 8, bytes: 4 * UPLOAD_LIMITS.audio });

export const capMessage = (caps: UploadCaps, kind: 'count' | 'bytes') =>
  kind === 'count'
    ? `You have ${caps.count} unfinished uploads: finish or cancel one first.`
    : `Your unfinished uploads would exceed ${Math.round(caps.bytes / 1024 / 1024)} MB: finish or cancel one first.`;

/**
 * What a path under the tus endpoint names: the endpoint itself (`'endpoint'`), one upload (its
 * id), or nothing (null). Exact: `PATH` or `PATH/<32 hex>`, no trailing slash, no deeper
 * segment, no percent-encoding. The guard in front of tus and tus itself
 * (`getFileIdFromRequest`) both use it, so they can never disagree about which upload a
 * request is for.
 */
export function resumableUploadPath(pathname: string): 'endpoint' | { id: string } | null {
  if (pathname === RESUMABLE_UPLOADS_PATH) return 'endpoint';
  if (!pathname.startsWith(`${RESUMABLE_UPLOADS_PATH}/`)) return null;
  const id = pathname.slice(RESUMABLE_UPLOADS_PATH.length + 1);
  return UPLOAD_ID.test(id) ? { id } : null;
}

/** The part of tus's record (`<id>.json`) we read. */
type UploadRecord = {
  size?: number;
  metadata?: Record<string, string | null | undefined>;
  creation_date?: string;
};

export type ResumableUpload = {
  id: string;
  /** The partial or finished file. */
  path: string;
  owner: number | null;
  filename: string;
  /** Declared by the client (undefined while deferred). */
  size: number | undefined;
  /** Bytes received so far. */
  offset: number;
};

/** An upload by id, or null when there is none (a malformed id names none). */
export function getResumableUpload(id: string): Promise<ResumableUpload | null> {
  return readUpload(resumableUploadsDir(), id);
}

async function readUpload(dir: string, id: string): Promise<ResumableUpload | null> {
  if (!UPLOAD_ID.test(id)) return null;
  let record: UploadRecord;
  try {
    record = JSON.parse(await fs.readFile(path.join(dir, `${id}.json`), 'utf8')) as UploadRecord;
  } catch {
    return null;
  }
  const file = path.join(dir, id);
  const stat = await fs.stat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  const owner = Number(record.metadata?.owner);
  return {
    id,
    path: file,
    owner: Number.isSafeInteger(owner) ? owner : null,
    filename: record.metadata?.filename ?? '',
    size: typeof record.size === 'number' ? record.size : undefined,
    offset: stat.size,
  };
}

export const RESUMABLE_MESSAGES = {
  unknown: 'No finished upload of yours has this id: upload the file again.',
  unfinished: 'The upload has not finished yet: wait for it to reach 100%.',
} as const;

type Checked = { ok: true; upload: ResumableUpload } | { ok: false; message: string };

/**
 * May `userId` attach this upload to a track? It must exist, be theirs, be finished, be
 * within the audio cap and pass the content checks of a form upload (type by its first bytes
 * and by the client's file name). Nothing changes either way.
 */
export async function checkResumableUpload(id: string, userId: number): Promise<Checked> {
  const upload = await getResumableUpload(id.trim());
  if (!upload || upload.owner !== userId) return { ok: false, message: RESUMABLE_MESSAGES.unknown };
  if (upload.size === undefined || upload.offset < upload.size) {
    return { ok: false, message: RESUMABLE_MESSAGES.unfinished };
  }
  const inspected = await inspectFile('audio', upload.path, upload.filename);
  if (!inspected.ok) return inspected;
  return { ok: true, upload };
}

/**
 * Make a checked upload a stored audio file (checked again, then renamed into
 * `UPLOADS_DIR/audio/` under a fresh name) and forget its tus record. From here it is a form
 * upload like any other: the save flow puts it into the media store or discards it.
 */
export async function claimResumableUpload(
  upload: ResumableUpload,
): Promise<{ ok: true; file: StoredUpload } | { ok: false; message: string }> {
  const adopted = await adoptFile('audio', upload.path, upload.filename);
  if (adopted.ok) {
    await fs.rm(path.join(resumableUploadsDir(), `${upload.id}.json`), { force: true });
  }
  return adopted;
}

/** The uploads in the folder that `owner` started and has not finished: their declared sizes. */
async function unfinishedUploadsOf(owner: number, directory: string): Promise<number[]> {
  const names = await fs.readdir(directory).catch(() => [] as string[]);
  const sizes: number[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const upload = await readUpload(directory, name.slice(0, -'.json'.length));
    if (!upload || upload.owner !== owner) continue;
    if (upload.size === undefined) sizes.push(UPLOAD_LIMITS.audio);
    else if (upload.offset < upload.size) sizes.push(upload.size);
  }
  return sizes;
}

/** A tus error answer (`onUploadCreate` throws these). */
const tusRefusal = (status_code: number, body: string) => ({ status_code, body: `${body}\n` });

/**
 * The tus server, with our directory, cap and owner bookkeeping. `uploaderOf` names the admin
 * the guard in front of tus let through for a Node request (never anything the client sent).
 */
export function createResumableUploadServer(
  uploaderOf: (nodeRequest: object) => number | undefined,
  { directory = resumableUploadsDir(), caps = defaultUploadCaps() } = {},
): Server {
  /** The id each creation was given, by its request, to remove a creation that failed. */
  const created = new WeakMap<Request, string>();
  return new Server({
    path: RESUMABLE_UPLOADS_PATH,
    datastore: new FileStore({ directory }),
    namingFunction(req) {
      const id = randomBytes(16).toString('hex');
      created.set(req, id);
      return id;
    },
    getFileIdFromRequest(req) {
      const named = resumableUploadPath(new URL(req.url).pathname);
      return named && named !== 'endpoint' ? named.id : undefined;
    },
    maxSize: UPLOAD_LIMITS.audio,
    // `Location: /api/admin/uploads/<id>`: never built from the request's Host.
    relativeLocation: true,
    respectForwardedHeaders: false,
    // Same-origin only: no Access-Control-Allow-Origin for anyone.
    allowedOrigins: [],
    async onUploadCreate(req, upload) {
      const nodeRequest = req.runtime?.node?.req;
      const owner = nodeRequest ? uploaderOf(nodeRequest) : undefined;
      if (owner === undefined) throw tusRefusal(401, 'Authentication required');
      const filename = upload.metadata?.filename ?? '';
      if (!/\.(mp3|wav)$/i.test(filename)) {
        throw tusRefusal(400, 'Audio must be an MP3 or WAV file');
      }
      const unfinished = await unfinishedUploadsOf(owner, directory);
      if (unfinished.length >= caps.count) throw tusRefusal(429, capMessage(caps, 'count'));
      const declared = upload.sizeIsDeferred ? UPLOAD_LIMITS.audio : (upload.size ?? 0);
      const pending = unfinished.reduce((sum, size) => sum + size, 0);
      if (pending + declared > caps.bytes) throw tusRefusal(429, capMessage(caps, 'bytes'));
      // Only what we use, and the owner from the session, never from the client.
      return {
        metadata: { filename, filetype: upload.metadata?.filetype ?? '', owner: String(owner) },
      };
    },
    async onResponseError(req, error) {
      if (!('status_code' in error)) logger.error({ err: error }, 'resumable upload failed');
      // A creation that fails after tus made its files (a body longer than its Upload-Length,
      // a broken connection) leaves nothing behind: no one could name the upload anyway, as the
      // answer carries no Location.
      const id = created.get(req);
      if (id) {
        await fs.rm(path.join(directory, id), { force: true });
        await fs.rm(path.join(directory, `${id}.json`), { force: true });
      }
      return undefined;
    },
  });
}

/**
 * Remove partial uploads, and finished ones never attached to a track, that have seen no
 * activity (no byte received, no record written) for `maxAgeMs`. Also anything else left in
 * the folder for that long. Returns the removed names.
 */
export async function sweepResumableUploads({
  directory = resumableUploadsDir(),
  maxAgeMs = RESUMABLE_UPLOAD_MAX_AGE_MS,
  now = Date.now(),
}: { directory?: string; maxAgeMs?: number; now?: number } = {}): Promise<string[]> {
  const names = await fs.readdir(directory).catch(() => [] as string[]);
  const lastActivity = new Map<string, number>();
  for (const name of names) {
    const stat = await fs.stat(path.join(directory, name)).catch(() => null);
    if (!stat?.isFile()) continue;
    const id = name.replace(/\.json$/, '');
    lastActivity.set(id, Math.max(lastActivity.get(id) ?? 0, stat.mtimeMs));
  }
  const removed: string[] = [];
  for (const [id, last] of lastActivity) {
    if (now - last < maxAgeMs) continue;
    await fs.rm(path.join(directory, id), { force: true });
    await fs.rm(path.join(directory, `${id}.json`), { force: true });
    removed.push(id);
  }
  if (removed.length > 0) {
    logger.info({ uploads: removed }, `removed ${removed.length} abandoned resumable upload(s)`);
  }
  return removed;
}

let sweepTimer: NodeJS.Timeout | null = null;

/** Sweep now and then every `intervalMs` (at start-up; stopped with the app). */
export function startResumableUploadSweep(intervalMs = 60 * 60 * 1000): void {
  const sweep = () =>
    sweepResumableUploads().catch((error: unknown) => {
      logger.error({ err: error }, 'resumable upload sweep failed');
    });
  void sweep();
  sweepTimer ??= setInterval(() => void sweep(), intervalMs);
  sweepTimer.unref();
}

export function stopResumableUploadSweep(): void {
  if (sweepTimer) clearInterval(sweepTimer);
  sweepTimer = null;
}
