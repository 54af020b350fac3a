import { createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

import { uploadsDir } from '~/platform/env.server';
import {
  bodyRefusal,
  type MultipartPart as UploadHandlerPart,
  readMultipart,
} from '~/platform/request-body.server';

import { deleteUploadedFile } from './stored-files.server';
import {
  cleanOriginalName,
  type Detected,
  extensionOf,
  FOLDERS,
  freshName,
  MB,
  sizeMessage,
  sniffType,
  type StoredUpload,
  typeMessage,
  UPLOAD_LIMITS,
  type UploadKind,
  type UploadSpec,
} from './upload-checks.server';

export {
  adoptFile,
  inspectFile,
  readAudioDuration,
  sniffType,
  type StoredUpload,
  UPLOAD_LIMITS,
  UPLOAD_MESSAGES,
  type UploadKind,
  type UploadSpec,
} from './upload-checks.server';

/**
 * Multipart uploads for the admin forms and the /api admin routes.
 *
 * - The body is streamed: each file part goes straight to a temporary `.part` file in its
 *   target folder (`UPLOADS_DIR/images` or `UPLOADS_DIR/audio`); nothing is held whole in
 *   memory. Text fields are small and capped.
 * - Limits: images 10 MB, audio MAX_AUDIO_MB (default 1024 MB), the whole body both plus
 *   4 MB for the text fields and the multipart framing (a body over the cap, by its
 *   Content-Length or while streaming, is refused with 413). Memory stays flat whatever the
 *   size: the body is read chunk by chunk with backpressure (`npm run bench:upload`).
 * - Types, limits and names are upload-checks.server.ts's: magic bytes AND the extension,
 *   fresh random names (no traversal, and a replaced file never serves stale from a cache).
 * - Atomic: the `.part` file is renamed into place only once it is complete and valid. A
 *   file that fails its checks is deleted and reported in `fileErrors`; a body-level
 *   problem deletes every file of the request and throws a Response.
 */

export type ParsedUpload = {
  fields: Record<string, string>;
  files: Record<string, StoredUpload>;
  fileErrors: Record<string, string[]>;
};

/** Per text field and for all text fields together. */
const FIELD_LIMIT = 1 * MB;
const FIELDS_TOTAL_LIMIT = 2 * MB;

function writeChunk(stream: WriteStream, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = stream.write(chunk, (error) => {
      if (error) reject(error);
    });
    if (ok) resolve();
    else stream.once('drain', resolve);
  });
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}

/** Read a part to its end (the parser must read it to reach the next one); its size. */
async function skipPart(data: AsyncIterable<Uint8Array>): Promise<number> {
  let size = 0;
  for await (const chunk of data) size += chunk.byteLength;
  return size;
}

/** What one request's parts have produced so far, and what must be undone if it fails. */
type UploadState = ParsedUpload & {
  /** `.part` files not yet renamed into place or deleted. */
  tempFiles: Set<string>;
  /**
   * Open temp-file streams: a body that fails before a stream has opened its file would
   * otherwise create the `.part` after the cleanup removed it.
   */
  streams: Set<WriteStream>;
  /** Bytes of all text fields so far. */
  fieldBytes: number;
};

const newState = (): UploadState => ({
  fields: {},
  files: {},
  fileErrors: {},
  tempFiles: new Set(),
  streams: new Set(),
  fieldBytes: 0,
});

function addError(state: UploadState, name: string, message: string): void {
  state.fileErrors[name] = [...(state.fileErrors[name] ?? []), message];
}

/** A temporary `.part` file for one upload, in its kind's folder, opened for writing. */
async function openTempFile(state: UploadState, kind: UploadKind) {
  const folder = path.join(uploadsDir(), FOLDERS[kind]);
  await fs.mkdir(folder, { recursive: true });
  const name = freshName();
  const temp = path.join(folder, `.${name}.part`);
  state.tempFiles.add(temp);
  const out = createWriteStream(temp, { flags: 'wx' });
  state.streams.add(out);
  out.once('close', () => state.streams.delete(out));
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  /** Write, or reject with the stream's error. */
  const write = (chunk: Uint8Array) => Promise.race([writeChunk(out, chunk), failed]);
  const close = () => Promise.race([closeStream(out), failed]);
  return { folder, name, temp, write, close };
}

type Streamed = { size: number; detected: Detected | null; failure: string | null };

/**
 * Copy a file part into its temp file: its type from the first 12 bytes, its size against the
 * kind's limit. Past a failure the part is still read to its end, but nothing more is written.
 */
async function copyToTemp(
  part: UploadHandlerPart,
  kind: UploadKind,
  write: (chunk: Uint8Array) => Promise<void>,
): Promise<Streamed> {
  let size = 0;
  let head = new Uint8Array(0);
  let detected: Detected | null = null;
  let failure: string | null = null;
  for await (const chunk of part.data) {
    size += chunk.byteLength;
    if (failure) continue;
    if (size > UPLOAD_LIMITS[kind]) {
      failure = sizeMessage(kind);
      continue;
    }
    if (detected) {
      await write(chunk);
      continue;
    }
    const merged = new Uint8Array(head.length + chunk.byteLength);
    merged.set(head);
    merged.set(chunk, head.length);
    head = merged;
    if (head.length < 12) continue;
    detected = sniffType(kind, head);
    if (!detected) failure = typeMessage(kind);
    else await write(head);
    head = new Uint8Array(0);
  }
  if (!failure && !detected) {
    // Shorter than 12 bytes: still try to identify it (a real file never is).
    detected = head.length > 0 ? sniffType(kind, head) : null;
    if (!detected) failure = typeMessage(kind);
    else await write(head);
  }
  if (!failure && detected && !detected.extensions.includes(extensionOf(part.filename ?? '')))
    failure = typeMessage(kind);
  return { size, detected, failure };
}

/**
 * Store one file part: streamed to a temp file, then renamed into place under a fresh name,
 * or deleted with a message in `fileErrors` (a second file for the same field is dropped).
 */
async function storeFile(state: UploadState, part: UploadHandlerPart, kind: UploadKind) {
  const temp = await openTempFile(state, kind);
  const { size, detected, failure } = await copyToTemp(part, kind, temp.write);
  await temp.close();
  const discard = async () => {
    await fs.rm(temp.temp, { force: true });
    state.tempFiles.delete(temp.temp);
  };
  if (failure || !detected) {
    await discard();
    addError(state, part.name, failure ?? typeMessage(kind));
    return;
  }
  if (state.files[part.name]) {
    await discard(); // a second file for the same field: keep the first
    return;
  }
  const finalName = `${temp.name}.${detected.ext}`;
  const finalPath = path.join(temp.folder, finalName);
  await fs.rename(temp.temp, finalPath);
  state.tempFiles.delete(temp.temp);
  state.files[part.name] = {
    url: `/uploads/${FOLDERS[kind]}/${finalName}`,
    path: finalPath,
    size,
    mime: detected.mime,
    originalName: cleanOriginalName(part.filename ?? ''),
  };
}

/** A text field, capped per field and for all fields together (413); the first one wins. */
async function readTextField(state: UploadState, part: UploadHandlerPart): Promise<void> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of part.data) {
    bytes += chunk.byteLength;
    state.fieldBytes += chunk.byteLength;
    if (bytes > FIELD_LIMIT) throw bodyRefusal.tooLarge(FIELD_LIMIT);
    if (state.fieldBytes > FIELDS_TOTAL_LIMIT) throw bodyRefusal.tooLarge(FIELDS_TOTAL_LIMIT);
    text += decoder.decode(chunk, { stream: true });
  }
  text += decoder.decode();
  if (!Object.hasOwn(state.fields, part.name)) state.fields[part.name] = text;
}

/** One part: a file of the spec is stored, another file skipped, a text field kept. */
async function handlePart(state: UploadState, spec: UploadSpec, part: UploadHandlerPart) {
  if (typeof part.filename !== 'string') return readTextField(state, part);
  const fileSpec = Object.hasOwn(spec, part.name) ? spec[part.name] : undefined;
  if (!fileSpec) {
    await skipPart(part.data);
    return;
  }
  // No file chosen: the browser sends an empty part without a name.
  if (part.filename === '') {
    if ((await skipPart(part.data)) > 0) addError(state, part.name, typeMessage(fileSpec.kind));
    return;
  }
  await storeFile(state, part, fileSpec.kind);
}

/** Undo a failed request: close the temp streams, delete temp and stored files. */
async function abandon(state: UploadState): Promise<void> {
  await Promise.all(
    [...state.streams].map(
      (s) =>
        new Promise<void>((resolve) => {
          s.once('close', () => resolve());
          s.destroy();
        }),
    ),
  );
  await Promise.all([...state.tempFiles].map((f) => fs.rm(f, { force: true })));
  await discardUploads(state.files);
}

/**
 * Parse a multipart request, storing the files named in `spec`. Throws a Response for a
 * body-level problem (the request-body reader's 413 too large, 415 not multipart, 400
 * malformed or incomplete), after deleting every file of the request; per-file type and size
 * problems go to `fileErrors` (and that file is deleted). Empty file inputs (no file chosen)
 * are simply absent from `files`. Resolves only once the whole body has arrived.
 */
export async function parseMultipartUpload(
  request: Request,
  spec: UploadSpec,
): Promise<ParsedUpload> {
  const state = newState();
  try {
    await readMultipart(request, (part) => handlePart(state, spec, part), {
      maxBytes: UPLOAD_LIMITS.body,
    });
  } catch (error) {
    await abandon(state);
    throw error;
  }
  return { fields: state.fields, files: state.files, fileErrors: state.fileErrors };
}

/**
 * Delete stored uploads (e.g. when the record they were for could not be saved), with any
 * image derivatives already written beside them.
 */
export async function discardUploads(files: Record<string, StoredUpload>): Promise<void> {
  await Promise.all(
    Object.values(files).map(async (f) => {
      await fs.rm(f.path, { force: true });
      await deleteUploadedFile(f.url);
    }),
  );
}
