import { unstable_parseMultipartFormData, type UploadHandlerPart } from '@remix-run/node';

/**
 * The one way to read a request body. Every page action and every /api route reads its body
 * through this module; nothing else calls `request.formData()`, `.json()`, `.text()` or
 * `.arrayBuffer()` (an ESLint rule forbids it outside this file):
 *
 * - `readForm(request, limits?)`: a urlencoded or multipart form without files (FormData);
 * - `readJson(request, limits?)`: a JSON value;
 * - `readMultipart(request, onPart, limits)`: a multipart body streamed part by part, for the
 *   file uploads (app/files/uploads.server.ts stores the files);
 * - `discardBody` / `finishUnreadBody`: read and drop a body the answer does not need;
 * - `formRequest`: a request rebuilt from a form already read, for libraries that read the
 *   body themselves (remix-auth-form's FormStrategy).
 *
 * One set of refusals, thrown as plain-text Responses (a page shows them in its error
 * boundary with their status; the /api wrapper turns them into JSON `{ error }`):
 * 415 the Content-Type is not what the reader expects; 413 the body is over the limit (by its
 * Content-Length, or while it streams); 400 the body is malformed, or ends before its
 * Content-Length (the client went away: nothing read from such a body is acted upon).
 *
 * An answer given before the body was read completely (a refusal, a 401…) first reads and
 * drops the rest, up to DISCARD_LIMIT: closing a socket with unread data makes the kernel
 * send a reset, and the client would see that instead of the answer. A bigger rest (a 1 GB
 * upload over its cap) is not waited for: the answer goes out at once, without
 * `Connection: close` (Node would close the socket as soon as it is written, on unread data:
 * a reset the client may see before the answer), and the server goes on reading and dropping
 * the rest after it; it cuts the connection only once the client has had LINGER_MS to read
 * the answer (app/platform/request-tracking.server.ts, decision 036).
 */

const KB = 1024;
const MB = 1024 * KB;

/** The most an answer reads and drops of a body it does not use. */
export const DISCARD_LIMIT = 16 * MB;
/** Default bound of a form body (page forms; uploads stream through `readMultipart`). */
export const FORM_LIMIT = 2 * MB;
/** Default bound of a JSON body. */
export const JSON_LIMIT = 100 * KB;

export type BodyLimits = { /** The most bytes the body may have. */ maxBytes?: number };

const sizeText = (bytes: number) =>
  bytes >= MB && bytes % MB === 0 ? `${bytes / MB} MB` : `${Math.round(bytes / KB)} KB`;

function refuse(status: 400 | 413 | 415, message: string): Response {
  const headers = new Headers({
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  return new Response(message, { status, headers });
}

/** The refusals of a body, as thrown by the readers. */
export const bodyRefusal = {
  unsupportedType: (expected: string) => refuse(415, `Expected ${expected}`),
  tooLarge: (limit: number) => refuse(413, `Request body too large (limit ${sizeText(limit)})`),
  malformed: (kind: 'JSON' | 'form' | 'multipart') => refuse(400, `Malformed ${kind} body`),
  incomplete: () => refuse(400, 'Incomplete request body'),
};

// ---------------------------------------------------------------------------------------
// Content types
// ---------------------------------------------------------------------------------------

/** The media type of a request, lower case, without parameters ('' when absent). */
export function mediaType(request: Request): string {
  return (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export const isJsonRequest = (request: Request) => {
  const type = mediaType(request);
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
};

export const isFormRequest = (request: Request) => {
  const type = mediaType(request);
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
};

/** The Content-Length the client declared (null when absent or not a number). */
function declaredLength(request: Request): number | null {
  const value = request.headers.get('Content-Length');
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

// ---------------------------------------------------------------------------------------
// Dropping what is not read
// ---------------------------------------------------------------------------------------

/** Read and drop up to `budget` more bytes; true when the body ended within it. */
async function dropRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  budget = DISCARD_LIMIT,
): Promise<boolean> {
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      size += value.byteLength;
      if (size > budget) {
        // Not cancel(): that destroys the socket before the answer is written (the client
        // sees a reset). The server drops what is left after answering, or cuts the
        // connection (app/platform/request-tracking.server.ts).
        reader.releaseLock();
        return false;
      }
    }
  } catch {
    return false; // the client went away
  }
}

/**
 * Read and drop a body that will not be used, up to DISCARD_LIMIT (a bigger declared one is
 * not waited for). True when nothing of it is left unread.
 */
export async function discardBody(request: Request): Promise<boolean> {
  if (request.bodyUsed || !request.body) return true;
  if (request.body.locked) return false;
  const declared = declaredLength(request);
  if (declared !== null && declared > DISCARD_LIMIT) return false;
  return dropRest(request.body.getReader());
}

/**
 * An answer given before the body was read (401, 403, 404, 405…): the body is dropped first
 * (`discardBody`); a bigger rest is dropped after the answer by the server (see the top).
 */
export async function finishUnreadBody(request: Request, response: Response): Promise<Response> {
  if (request.bodyUsed || !request.body) return response;
  await discardBody(request);
  return response;
}

// ---------------------------------------------------------------------------------------
// Whole bodies: forms and JSON
// ---------------------------------------------------------------------------------------

/** The whole body, at most `limit` bytes (413 past it, 400 when it breaks off). */
async function readBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = declaredLength(request);
  if (declared !== null && declared > limit) {
    await discardBody(request);
    throw bodyRefusal.tooLarge(limit);
  }
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await reader.read();
    } catch {
      throw bodyRefusal.incomplete();
    }
    if (result.done) break;
    size += result.value.byteLength;
    if (size > limit) {
      await dropRest(reader);
      throw bodyRefusal.tooLarge(limit);
    }
    chunks.push(result.value);
  }
  if (declared !== null && size < declared) throw bodyRefusal.incomplete();
  const out = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * A form body (application/x-www-form-urlencoded or multipart/form-data), at most
 * `maxBytes` (default FORM_LIMIT). Refusals: 415, 413, 400.
 */
export async function readForm(request: Request, limits: BodyLimits = {}): Promise<FormData> {
  if (!isFormRequest(request)) {
    throw bodyRefusal.unsupportedType(
      'a form (application/x-www-form-urlencoded or multipart/form-data)',
    );
  }
  const bytes = await readBytes(request, limits.maxBytes ?? FORM_LIMIT);
  try {
    return await new Response(bytes, {
      headers: { 'Content-Type': request.headers.get('Content-Type') ?? '' },
    }).formData();
  } catch {
    throw bodyRefusal.malformed('form');
  }
}

/** A JSON body, at most `maxBytes` (default JSON_LIMIT). Refusals: 415, 413, 400. */
export async function readJson(request: Request, limits: BodyLimits = {}): Promise<unknown> {
  if (!isJsonRequest(request)) throw bodyRefusal.unsupportedType('application/json');
  const bytes = await readBytes(request, limits.maxBytes ?? JSON_LIMIT);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.trim() === '') throw bodyRefusal.malformed('JSON');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw bodyRefusal.malformed('JSON');
  }
}

/**
 * A request carrying `form` as a urlencoded body (and the original's cookies), for a library
 * that reads the body itself: it gets the form our reader already read and bounded.
 */
export function formRequest(request: Request, form: FormData | Record<string, string>): Request {
  const body = new URLSearchParams();
  const entries = form instanceof FormData ? [...form] : Object.entries(form);
  for (const [name, value] of entries) if (typeof value === 'string') body.append(name, value);
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded' });
  const cookie = request.headers.get('Cookie');
  if (cookie) headers.set('Cookie', cookie);
  return new Request(request.url, { method: 'POST', headers, body });
}

// ---------------------------------------------------------------------------------------
// Multipart, part by part
// ---------------------------------------------------------------------------------------

export type MultipartPart = UploadHandlerPart;

class TooLargeError extends Error {}
class IncompleteError extends Error {}

/**
 * The request body as a stream the multipart parser reads, counted against `limit`. The
 * source reader stays ours: once the parser has seen the closing boundary, `toEnd()` reads
 * the rest, so nothing is acted upon before the body has really ended (a client that stops
 * short of its Content-Length, or goes away, gets a 400 and changes nothing).
 */
function countedBody(body: ReadableStream<Uint8Array>, limit: number, declared: number | null) {
  const reader = body.getReader();
  let total = 0;
  let ended = false;
  const next = async (): Promise<Uint8Array | null> => {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await reader.read();
    } catch {
      throw new IncompleteError('The body broke off');
    }
    if (result.done) {
      ended = true;
      if (declared !== null && total < declared) throw new IncompleteError('Shorter than declared');
      return null;
    }
    total += result.value.byteLength;
    if (total > limit) throw new TooLargeError('Request body too large');
    return result.value;
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = await next();
          if (chunk) controller.enqueue(chunk);
          else controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
      // No cancel(): the source is never cancelled (it would reset the connection).
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    /** Read what follows the closing boundary, to the end of the body. */
    async toEnd(): Promise<void> {
      while (!ended) await next();
    },
    /** Drop the rest after a refusal (up to DISCARD_LIMIT); true when nothing was left unread. */
    dropRest: () => (ended ? Promise.resolve(true) : dropRest(reader)),
  };
}

/**
 * Stream a multipart/form-data body to `onPart`, one part at a time (each part's data must be
 * consumed). Resolves once the body has ended. Refusals: 415 not multipart, 413 over
 * `maxBytes` (by Content-Length or while streaming), 400 malformed or incomplete. A Response
 * thrown by `onPart` is the answer; an error of the disk (with a `syscall`) is rethrown as is.
 * Whatever `onPart` stored must be undone by the caller when this throws.
 */
export async function readMultipart(
  request: Request,
  onPart: (part: MultipartPart) => Promise<void>,
  limits: Required<BodyLimits>,
): Promise<void> {
  const contentType = request.headers.get('Content-Type') ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw bodyRefusal.unsupportedType('multipart/form-data');
  }
  const limit = limits.maxBytes;
  const declared = declaredLength(request);
  if (declared !== null && declared > limit) {
    await discardBody(request);
    throw bodyRefusal.tooLarge(limit);
  }
  if (!request.body) throw bodyRefusal.malformed('multipart');

  const body = countedBody(request.body, limit, declared);
  const counted = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: body.stream,
    duplex: 'half',
  } as RequestInit);
  try {
    await unstable_parseMultipartFormData(counted, async (part) => {
      await onPart(part);
      return null;
    });
    await body.toEnd();
  } catch (error) {
    if (error instanceof IncompleteError) throw bodyRefusal.incomplete();
    // A disk problem of ours is a server error; anything else is the body's fault.
    if (!(error instanceof Response) && error instanceof Error && 'syscall' in error) throw error;
    await body.dropRest();
    if (error instanceof TooLargeError) throw bodyRefusal.tooLarge(limit);
    throw error instanceof Response ? error : bodyRefusal.malformed('multipart');
  }
}
