import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';

import { createReadableStreamFromReadable } from '@remix-run/node';

import { type ViewedRequest, viewedRequest } from '~/document/page-cache.server';
import { notFound } from '~/platform/http-errors.server';
import { httpDate } from '~/utils/time';

import {
  contentRange,
  isNotModified,
  makeEtag,
  parseRangeHeader,
  rangeStillValid,
  unsatisfiedContentRange,
} from './http-range';
import { mediaKeyFromUrl, type MediaStore, mediaStore, SMALL_READ } from './media-store.server';

/** Types served inline; everything else is a download. */
const INLINE_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
};

/**
 * The response type for a file name. SVG can carry scripts, so it is sent as a download with a
 * sandboxing CSP (an `<img src>` still shows it); unknown types are downloads too.
 */
export function contentTypeFor(fileName: string): {
  type: string;
  attachment: boolean;
  sandbox: boolean;
} {
  const ext = path.extname(fileName).toLowerCase();
  const inline = INLINE_TYPES[ext];
  if (inline) return { type: inline, attachment: false, sandbox: false };
  if (ext === '.svg') return { type: 'image/svg+xml', attachment: true, sandbox: true };
  return { type: 'application/octet-stream', attachment: true, sandbox: true };
}

const notFoundFile = () =>
  notFound('Not Found', { headers: { 'X-Content-Type-Options': 'nosniff' } });

export type ServeFileOptions = {
  /** Where the files are (the MEDIA_STORAGE store). */
  store: MediaStore;
  /** The file's key in the store (`mediaKeyFromUrl`), or null when the URL names none: 404. */
  key: string | null;
  cacheControl?: string;
};

/** What to answer for a file: status, headers, and the bytes to send (none for HEAD/304/416). */
export type FilePlan = {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  range: { start: number; end: number } | null;
};

/**
 * The answer to a GET or HEAD of a stored file whose `stat` is known: 200, 206 (one byte
 * range), 304 or 416, with validators and caching. Shared by `serveFile` (through Remix) and
 * `serveMediaDirect` (before Remix), so both answer byte for byte the same.
 */
export function planFile(
  method: string,
  requestHeaders: { get(name: string): string | null },
  key: string,
  stat: { size: number; mtimeMs: number },
  cacheControl?: string,
): FilePlan {
  const file = key.split('/').pop()!;
  const size = stat.size;
  const etag = makeEtag(size, stat.mtimeMs);
  const { type, attachment, sandbox } = contentTypeFor(file);
  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    'Content-Type': type,
    'X-Content-Type-Options': 'nosniff',
    ETag: etag,
    'Last-Modified': httpDate(stat.mtimeMs),
    // Upload names are unique per upload: a replaced file gets a new URL.
    'Cache-Control': cacheControl ?? 'public, max-age=31536000, immutable',
  };
  if (attachment) {
    const name = path.basename(file).replace(/["\\\r\n]/g, '_');
    headers['Content-Disposition'] =
      `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(path.basename(file))}`;
  }
  if (sandbox) headers['Content-Security-Policy'] = "default-src 'none'; sandbox";

  // `Headers`-like reads of the request (a Fetch Headers, or a Node request's view of one).
  const fetchLike = requestHeaders as Headers;
  if (isNotModified(fetchLike, etag, stat.mtimeMs)) {
    delete headers['Content-Type'];
    delete headers['Content-Disposition'];
    return { status: 304, headers, range: null };
  }

  const range = rangeStillValid(fetchLike, etag, stat.mtimeMs)
    ? parseRangeHeader(requestHeaders.get('range'), size)
    : ({ kind: 'full' } as const);

  if (range.kind === 'unsatisfiable') {
    headers['Content-Range'] = unsatisfiedContentRange(size);
    headers['Content-Length'] = '0';
    delete headers['Content-Disposition'];
    return { status: 416, headers, range: null };
  }

  const start = range.kind === 'partial' ? range.range.start : 0;
  const end = range.kind === 'partial' ? range.range.end : size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  headers['Content-Length'] = String(length);
  const status = range.kind === 'partial' ? 206 : 200;
  if (range.kind === 'partial') headers['Content-Range'] = contentRange(range.range, size);
  const sends = method.toUpperCase() !== 'HEAD' && length > 0;
  return { status, headers, range: sends ? { start, end } : null };
}

/**
 * Answers a GET or HEAD for a stored media file: 200, 206 (one byte range), 304, 404, 405 or
 * 416, streamed from the store (a Range request reads only the bytes it asks for).
 */
export async function serveFile(request: Request, options: ServeFileOptions): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'GET, HEAD' } });
  }
  const { key } = options;
  if (!key) return notFoundFile();
  const stat = await options.store.stat(key);
  if (!stat) return notFoundFile();
  const plan = planFile(method, request.headers, key, stat, options.cacheControl);
  if (!plan.range) return new Response(null, { status: plan.status, headers: plan.headers });
  let stream: Awaited<ReturnType<MediaStore['open']>>;
  try {
    stream = await options.store.open(key, plan.range);
  } catch {
    return notFoundFile(); // deleted (by another instance) since the stat
  }
  return new Response(createReadableStreamFromReadable(stream), {
    status: plan.status,
    headers: plan.headers,
  });
}

/**
 * Read buffers of SMALL_READ bytes, reused once their answer is sent: a steady stream of Range
 * requests then allocates nothing (fresh 256 KiB buffers per request made the allocator's
 * high-water mark, the process's RSS, climb under load). At most POOLED are kept.
 */
const POOLED = 64;
const readBuffers: Buffer[] = [];
const takeReadBuffer = () => readBuffers.pop() ?? Buffer.allocUnsafeSlow(SMALL_READ);
const giveReadBuffer = (buffer: Buffer) => {
  if (readBuffers.length < POOLED) readBuffers.push(buffer);
};

/** What the direct path needs from above (files/ cannot import models or services). */
export type MediaAccess = {
  /**
   * True when the audio at this /uploads URL goes to anyone (a cached read); false for
   * members-only audio and for admin-only files (a kept original, a stream still processing).
   */
  isPublicAudio(url: string): Promise<boolean>;
  /** A public audio file sent from its first byte: a play start (analytics). */
  countStart(request: ViewedRequest, url: string, status: number): void;
  /** `Cache-Control` of public audio (short: a track can turn members-only). */
  publicAudioCacheControl: string;
};

/**
 * Middleware before Remix for `/uploads/*` (decision 039): images and the audio of public
 * tracks, answered straight from the media store to the socket with the same `planFile` as the
 * route. Anything else (members-only or admin-only audio, which needs the session; an unknown file, a
 * method other than GET/HEAD, a path that names no media) goes on to the route
 * (`routes/uploads.$.ts`), which answers it as before.
 */
export const mediaMiddleware =
  (access: MediaAccess) =>
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    serveMediaDirect(req, res, access).then(
      (answered) => {
        if (!answered) next();
      },
      (error: unknown) => {
        if (res.headersSent) res.destroy();
        else next(error);
      },
    );
  };

async function serveMediaDirect(
  req: IncomingMessage,
  res: ServerResponse,
  access: MediaAccess,
): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return false;
  const url = req.url ?? '';
  if (!url.startsWith('/uploads/')) return false;
  const q = url.indexOf('?');
  const key = mediaKeyFromUrl(q === -1 ? url : url.slice(0, q));
  if (key === null) return false;
  const audio = key.startsWith('audio/');
  const filePath = `/uploads/${key}`;
  if (audio && !(await access.isPublicAudio(filePath))) return false;
  const opened = await mediaStore().openFile(key);
  if (!opened) return false;
  const request = viewedRequest(req);
  const plan = planFile(
    method,
    request.headers,
    key,
    opened.stat,
    audio ? access.publicAudioCacheControl : undefined,
  );
  if (audio && (plan.status === 200 || plan.status === 206))
    access.countStart(request, filePath, plan.status);
  res.statusCode = plan.status;
  for (const [name, value] of Object.entries(plan.headers)) res.setHeader(name, value);
  if (!plan.range) {
    opened.close();
    res.end();
    return true;
  }
  const length = plan.range.end - plan.range.start + 1;
  if (opened.readSmall && length <= SMALL_READ) {
    const buffer = takeReadBuffer();
    res.end(await opened.readSmall(plan.range, buffer));
    // Sent (handed to the socket): the buffer serves the next request.
    res.once('finish', () => giveReadBuffer(buffer));
    return true;
  }
  const stream: Readable = opened.read(plan.range);
  stream.once('error', () => res.destroy());
  res.once('close', () => stream.destroy());
  stream.pipe(res);
  return true;
}
