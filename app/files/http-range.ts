/**
 * HTTP byte ranges and conditional requests (RFC 9110 §13 and §14), pure so they can be
 * unit tested. Used by the /uploads/* route so browsers can seek in audio files.
 */

/** An inclusive byte range within a file. */
export type ByteRange = { start: number; end: number };

export type RangeResult =
  /** No (usable) Range header: answer 200 with the whole file. */
  | { kind: 'full' }
  /** One satisfiable range: answer 206. */
  | { kind: 'partial'; range: ByteRange }
  /** No range overlaps the file: answer 416 with `Content-Range: bytes * / size`. */
  | { kind: 'unsatisfiable' };

const SPEC_RE = /^(\d*)-(\d*)$/;

/**
 * Reads a `Range` header for a file of `size` bytes.
 *
 * - `bytes=0-99` → 0..99; `bytes=100-` → 100..size-1; `bytes=-100` → the last 100 bytes.
 * - An end past the file is cut to the last byte; a start past the end is unsatisfiable.
 * - A malformed header, another unit, or several ranges are ignored (the whole file is
 *   sent), which RFC 9110 allows and which keeps multipart answers out of the server.
 */
export function parseRangeHeader(header: string | null | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return { kind: 'full' };
  const specs = m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (specs.length !== 1) return { kind: 'full' };
  const spec = SPEC_RE.exec(specs[0].replace(/\s+/g, ''));
  if (!spec) return { kind: 'full' };
  const [, a, b] = spec;
  if (a === '' && b === '') return { kind: 'full' };

  if (a === '') {
    // Suffix range: the last N bytes.
    const n = Number(b);
    if (!Number.isSafeInteger(n)) return { kind: 'full' };
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - n), end: size - 1 } };
  }

  const start = Number(a);
  if (!Number.isSafeInteger(start)) return { kind: 'full' };
  let end = b === '' ? size - 1 : Number(b);
  if (!Number.isSafeInteger(end)) return { kind: 'full' };
  // A last position before the first is invalid syntax (RFC 9110 §14.1.1): ignored.
  if (b !== '' && end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  end = Math.min(end, size - 1);
  return { kind: 'partial', range: { start, end } };
}

export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

export function unsatisfiedContentRange(size: number): string {
  return `bytes */${size}`;
}

/** A strong validator from the file's size and modification time. */
export function makeEtag(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

function etagMatches(header: string, etag: string, weak: boolean): boolean {
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  const strip = (t: string) => (weak ? t.replace(/^W\//, '') : t);
  return trimmed
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .some((t) => strip(t) === strip(etag) && (weak || !t.startsWith('W/')));
}

/** HTTP dates have one-second resolution. */
const toSeconds = (ms: number) => Math.floor(ms / 1000);

/**
 * True when a GET/HEAD can be answered `304 Not Modified`: If-None-Match matches (weak
 * comparison), or, only without If-None-Match, the file is not newer than If-Modified-Since.
 */
export function isNotModified(headers: Headers, etag: string, mtimeMs: number): boolean {
  const inm = headers.get('if-none-match');
  if (inm !== null) return etagMatches(inm, etag, true);
  const ims = headers.get('if-modified-since');
  if (ims) {
    const since = Date.parse(ims);
    if (!Number.isNaN(since)) return toSeconds(mtimeMs) <= toSeconds(since);
  }
  return false;
}

/**
 * If-Range: the Range header applies only when the validator still matches (a strong ETag
 * comparison, or a date equal to Last-Modified); otherwise the whole file is sent.
 */
export function rangeStillValid(headers: Headers, etag: string, mtimeMs: number): boolean {
  const ifRange = headers.get('if-range');
  if (!ifRange) return true;
  const v = ifRange.trim();
  if (v.startsWith('"') || v.startsWith('W/')) return etagMatches(v, etag, false);
  const date = Date.parse(v);
  return !Number.isNaN(date) && toSeconds(date) === toSeconds(mtimeMs);
}
