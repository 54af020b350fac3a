/**
 * Page actions read their forms with `request.formData()`, which (a) throws a TypeError —
 * a 500 — when the body is not a form (JSON, text/plain, no Content-Type) or is malformed,
 * and (b) buffers a body of any size in memory. Installed once by entry.server, this guard
 * makes `Request.prototype.formData` refuse such bodies with a 4xx Response instead
 * (Remix renders a thrown Response through the route's error boundary with its status):
 *
 * - 415 when the Content-Type is not application/x-www-form-urlencoded or multipart/form-data;
 * - 413 when the body exceeds FORM_BODY_LIMIT (declared or streamed);
 * - 400 when the form cannot be parsed (e.g. truncated multipart).
 *
 * File uploads do not go through it: they are streamed to disk by uploads.server.ts.
 * /api routes check the content type themselves before reading (api.server.ts).
 */

export const FORM_BODY_LIMIT = 2 * 1024 * 1024;
const DISCARD_BEFORE_ANSWER = 16 * 1024 * 1024;

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

function refuse(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

async function readCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await reader.read();
    } catch {
      throw refuse(400, 'The form could not be read.');
    }
    if (result.done) break;
    size += result.value.byteLength;
    if (size > limit) {
      // Not cancel(): that destroys the socket before the answer is written. The server
      // drops the unread rest after answering (request-tracker.server.ts).
      reader.releaseLock();
      throw refuse(413, `The form is too large (limit ${limit / 1024 / 1024} MB).`);
    }
    chunks.push(result.value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The guarded `formData()`: a form, or a thrown 4xx Response. */
export async function guardedFormData(
  request: Request,
  limit = FORM_BODY_LIMIT,
): Promise<FormData> {
  const contentType = request.headers.get('Content-Type') ?? '';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!FORM_TYPES.has(type)) {
    throw refuse(
      415,
      'Expected a form submission (application/x-www-form-urlencoded or multipart/form-data).',
    );
  }
  const declared = Number(request.headers.get('Content-Length') ?? '');
  if (Number.isFinite(declared) && declared > limit) {
    // Read and drop a body of sane size before answering, so the answer is never raced by
    // a connection reset (closing a socket with unread data sends RST).
    if (declared <= DISCARD_BEFORE_ANSWER && request.body) {
      const reader = request.body.getReader();
      try {
        while (!(await reader.read()).done) {
          // dropped
        }
      } catch {
        // the client went away
      }
    }
    throw refuse(413, `The form is too large (limit ${limit / 1024 / 1024} MB).`);
  }
  const bytes = await readCapped(request, limit);
  try {
    return await new Response(bytes, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw refuse(400, 'The form could not be parsed.');
  }
}

function formData(this: Request): Promise<FormData> {
  return guardedFormData(this);
}

/**
 * Install the guard on the current global `Request`. remix-serve replaces the fetch
 * globals (installGlobals) after importing the build, so this is also called at the start
 * of every request (request-tracker.server.ts); it is a property check when in place.
 */
export function installFormDataGuard(): void {
  if (Request.prototype.formData === formData) return;
  Object.defineProperty(Request.prototype, 'formData', {
    configurable: true,
    writable: true,
    value: formData,
  });
}
