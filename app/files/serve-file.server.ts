import fs from 'node:fs';
import path from 'node:path';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { httpDate } from '~/utils/time';
import {
  contentRange,
  isNotModified,
  makeEtag,
  parseRangeHeader,
  rangeStillValid,
  unsatisfiedContentRange,
} from './http-range';

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

/**
 * Turns the URL path below the mount point into a safe absolute path inside `root`, or null.
 * Every segment is decoded once and must be a plain name: no '', '.', '..', dot-files,
 * separators, backslashes or NUL bytes.
 */
export function resolveInside(root: string, relativeUrlPath: string): string | null {
  const segments = relativeUrlPath.split('/');
  const decoded: string[] = [];
  for (const raw of segments) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (
      seg === '' ||
      seg.startsWith('.') ||
      seg.includes('/') ||
      seg.includes('\\') ||
      seg.includes('\0') ||
      seg.includes(':')
    ) {
      return null;
    }
    decoded.push(seg);
  }
  if (decoded.length === 0) return null;
  const base = path.resolve(root);
  const full = path.resolve(base, ...decoded);
  if (!full.startsWith(base + path.sep)) return null;
  return full;
}

const notFound = () =>
  new Response('Not Found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });

export type ServeFileOptions = {
  /** Folder the files come from. */
  root: string;
  /** URL path prefix the folder is mounted at, e.g. '/uploads/'. */
  mount: string;
  cacheControl?: string;
};

/**
 * Answers a GET or HEAD for a file under `root`: 200, 206 (one byte range), 304, 404, 405 or
 * 416, streamed from disk. Symlinks that leave `root` are 404s.
 */
export async function serveFile(request: Request, options: ServeFileOptions): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'GET, HEAD' } });
  }
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(options.mount)) return notFound();
  const file = resolveInside(options.root, pathname.slice(options.mount.length));
  if (!file) return notFound();

  let stat: fs.Stats;
  try {
    const [realRoot, realFile] = await Promise.all([
      fs.promises.realpath(options.root),
      fs.promises.realpath(file),
    ]);
    if (!realFile.startsWith(realRoot + path.sep)) return notFound();
    stat = await fs.promises.stat(realFile);
  } catch {
    return notFound();
  }
  if (!stat.isFile()) return notFound();

  const size = stat.size;
  const etag = makeEtag(size, stat.mtimeMs);
  const { type, attachment, sandbox } = contentTypeFor(file);
  const headers = new Headers({
    'Accept-Ranges': 'bytes',
    'Content-Type': type,
    'X-Content-Type-Options': 'nosniff',
    ETag: etag,
    'Last-Modified': httpDate(stat.mtimeMs),
    // Upload names are unique per upload: a replaced file gets a new URL.
    'Cache-Control': options.cacheControl ?? 'public, max-age=31536000, immutable',
  });
  if (attachment) {
    const name = path.basename(file).replace(/["\\\r\n]/g, '_');
    headers.set(
      'Content-Disposition',
      `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(path.basename(file))}`,
    );
  }
  if (sandbox) headers.set('Content-Security-Policy', "default-src 'none'; sandbox");

  if (isNotModified(request.headers, etag, stat.mtimeMs)) {
    headers.delete('Content-Type');
    headers.delete('Content-Disposition');
    return new Response(null, { status: 304, headers });
  }

  const range = rangeStillValid(request.headers, etag, stat.mtimeMs)
    ? parseRangeHeader(request.headers.get('range'), size)
    : ({ kind: 'full' } as const);

  if (range.kind === 'unsatisfiable') {
    headers.set('Content-Range', unsatisfiedContentRange(size));
    headers.set('Content-Length', '0');
    headers.delete('Content-Disposition');
    return new Response(null, { status: 416, headers });
  }

  const start = range.kind === 'partial' ? range.range.start : 0;
  const end = range.kind === 'partial' ? range.range.end : size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  headers.set('Content-Length', String(length));
  const status = range.kind === 'partial' ? 206 : 200;
  if (range.kind === 'partial') headers.set('Content-Range', contentRange(range.range, size));

  if (method === 'HEAD' || length === 0) return new Response(null, { status, headers });
  const stream = fs.createReadStream(file, { start, end });
  return new Response(createReadableStreamFromReadable(stream), { status, headers });
}
