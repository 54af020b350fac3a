import path from 'node:path';

import { createReadableStreamFromReadable } from '@remix-run/node';

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
import type { MediaStore } from './media-store.server';

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
 * range), 304 or 416, with validators and caching. Shared by `serveFile` (through Remix: the
 * podcast's media, a track's kept original) and `/uploads` (before Remix,
 * serve-uploads.server.ts), so every stored file is answered byte for byte the same way.
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
