import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { unstable_parseMultipartFormData, type UploadHandlerPart } from '@remix-run/node';
import { parseFile } from 'music-metadata';
import { uploadsDir } from '~/server/env.server';
import { deleteUploadedFile } from './stored-files.server';

/**
 * Multipart uploads for the admin forms and the /api admin routes.
 *
 * - The body is streamed: each file part goes straight to a temporary `.part` file in its
 *   target folder (`UPLOADS_DIR/images` or `UPLOADS_DIR/audio`); nothing is held whole in
 *   memory. Text fields are small and capped.
 * - Limits: images 10 MB, audio 50 MB, the whole body 64 MB (a body over the cap, by its
 *   Content-Length or while streaming, is refused with 413).
 * - Types are checked by magic bytes AND by the file name's extension: JPEG, PNG, WEBP for
 *   images; MP3 (ID3 tag or MPEG frame sync) and WAV (RIFF/WAVE) for audio.
 * - Stored names are fresh and random (`<32 hex>.<ext>`, the extension taken from the
 *   detected type), never the client's name: no traversal, and a replaced file never
 *   serves stale from a cache.
 * - Atomic: the `.part` file is renamed into place only once it is complete and valid. A
 *   file that fails its checks is deleted and reported in `fileErrors`; a body-level
 *   problem deletes every file of the request and throws a Response.
 */

export type UploadKind = 'image' | 'audio';
export type StoredUpload = {
  url: string;
  path: string;
  size: number;
  mime: string;
  originalName: string;
};
export type UploadSpec = Record<string, { kind: UploadKind }>;
export type ParsedUpload = {
  fields: Record<string, string>;
  files: Record<string, StoredUpload>;
  fileErrors: Record<string, string[]>;
};

const MB = 1024 * 1024;

export const UPLOAD_LIMITS: { image: number; audio: number; body: number } = {
  image: 10 * MB,
  audio: 50 * MB,
  body: 64 * MB,
};

/** Per text field and for all text fields together. */
const FIELD_LIMIT = 1 * MB;
const FIELDS_TOTAL_LIMIT = 2 * MB;

const FOLDERS: Record<UploadKind, string> = { image: 'images', audio: 'audio' };

type Detected = { ext: string; mime: string; extensions: string[] };

const IMAGE_TYPES_TEXT = 'JPEG, PNG, or WEBP';
const AUDIO_TYPES_TEXT = 'MP3 or WAV';

export const UPLOAD_MESSAGES = {
  imageType: `Image must be a ${IMAGE_TYPES_TEXT} file`,
  audioType: `Audio must be an ${AUDIO_TYPES_TEXT} file`,
  imageSize: `Image must be at most ${UPLOAD_LIMITS.image / MB} MB`,
  audioSize: `Audio must be at most ${UPLOAD_LIMITS.audio / MB} MB`,
} as const;

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** Identify the file from its first bytes (at least 12 are needed). */
export function sniffType(kind: UploadKind, head: Uint8Array): Detected | null {
  if (kind === 'image') {
    if (startsWith(head, [0xff, 0xd8, 0xff]))
      return { ext: 'jpg', mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] };
    if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
      return { ext: 'png', mime: 'image/png', extensions: ['png'] };
    if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8))
      return { ext: 'webp', mime: 'image/webp', extensions: ['webp'] };
    return null;
  }
  if (startsWith(head, ascii('ID3')))
    return { ext: 'mp3', mime: 'audio/mpeg', extensions: ['mp3'] };
  // MPEG audio frame sync: 11 set bits, a valid version (not 01) and layer (not 00).
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) {
    const version = (head[1] >> 3) & 0b11;
    const layer = (head[1] >> 1) & 0b11;
    if (version !== 0b01 && layer !== 0b00)
      return { ext: 'mp3', mime: 'audio/mpeg', extensions: ['mp3'] };
  }
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WAVE'), 8))
    return { ext: 'wav', mime: 'audio/wav', extensions: ['wav'] };
  return null;
}

function extensionOf(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The client's name, for display only: base name, no control characters, bounded. */
function cleanOriginalName(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200);
}

const freshName = () => randomBytes(16).toString('hex');

class BodyTooLargeError extends Error {}

/** Counts the bytes of the body and errors the stream once it passes the cap. */
function capStream(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > limit) controller.error(new BodyTooLargeError('Request body too large'));
        else controller.enqueue(chunk);
      },
    }),
    // Never cancel the request body: that destroys the socket before the 413/400 is
    // written (the client sees a reset). The server drops the unread rest after answering
    // (request-tracker.server.ts).
    { preventCancel: true },
  );
}

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

async function drain(data: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _chunk of data) {
    // Discard: the parser must read the part to reach the next one.
  }
}

const textResponse = (status: number, message: string) =>
  new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

/**
 * Parse a multipart request, storing the files named in `spec`. Throws a Response for a
 * body-level problem (413 too large, 415 not multipart, 400 malformed or truncated);
 * per-file type and size problems go to `fileErrors` (and that file is deleted).
 * Empty file inputs (no file chosen) are simply absent from `files`.
 */
export async function parseMultipartUpload(
  request: Request,
  spec: UploadSpec,
): Promise<ParsedUpload> {
  const contentType = request.headers.get('Content-Type') ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw textResponse(415, 'Expected multipart/form-data');
  }
  const declared = Number(request.headers.get('Content-Length') ?? '');
  if (Number.isFinite(declared) && declared > UPLOAD_LIMITS.body) {
    throw textResponse(413, 'Upload too large');
  }
  if (!request.body) throw textResponse(400, 'Malformed multipart body');

  const fields: Record<string, string> = {};
  const files: Record<string, StoredUpload> = {};
  const fileErrors: Record<string, string[]> = {};
  const tempFiles = new Set<string>();
  // Open temp-file streams: a body that fails before a stream has opened its file would
  // otherwise create the `.part` after the cleanup removed it.
  const streams = new Set<WriteStream>();
  let fieldBytes = 0;

  const addError = (name: string, message: string) => {
    fileErrors[name] = [...(fileErrors[name] ?? []), message];
  };

  async function storeFile(part: UploadHandlerPart, kind: UploadKind): Promise<void> {
    const filename = part.filename ?? '';
    const limit = UPLOAD_LIMITS[kind];
    const folder = path.join(uploadsDir(), FOLDERS[kind]);
    await fs.mkdir(folder, { recursive: true });
    const name = freshName();
    const temp = path.join(folder, `.${name}.part`);
    tempFiles.add(temp);
    const out = createWriteStream(temp, { flags: 'wx' });
    streams.add(out);
    out.once('close', () => streams.delete(out));
    const outError = new Promise<never>((_, reject) => out.once('error', reject));
    outError.catch(() => undefined);

    let size = 0;
    let head = new Uint8Array(0);
    let detected: Detected | null = null;
    let failure: string | null = null;
    const typeMessage = kind === 'image' ? UPLOAD_MESSAGES.imageType : UPLOAD_MESSAGES.audioType;
    const sizeMessage = kind === 'image' ? UPLOAD_MESSAGES.imageSize : UPLOAD_MESSAGES.audioSize;

    for await (const chunk of part.data) {
      size += chunk.byteLength;
      if (failure) continue; // keep reading (the parser needs it), stop writing
      if (size > limit) {
        failure = sizeMessage;
        continue;
      }
      if (!detected) {
        const merged = new Uint8Array(head.length + chunk.byteLength);
        merged.set(head);
        merged.set(chunk, head.length);
        head = merged;
        if (head.length < 12) continue;
        detected = sniffType(kind, head);
        if (!detected) {
          failure = typeMessage;
          continue;
        }
        await Promise.race([writeChunk(out, head), outError]);
        head = new Uint8Array(0);
        continue;
      }
      await Promise.race([writeChunk(out, chunk), outError]);
    }

    if (!failure && !detected) {
      // Shorter than 12 bytes: still try to identify it (a real file never is).
      detected = head.length > 0 ? sniffType(kind, head) : null;
      if (!detected) failure = typeMessage;
      else await Promise.race([writeChunk(out, head), outError]);
    }
    if (!failure && detected && !detected.extensions.includes(extensionOf(filename)))
      failure = typeMessage;

    await Promise.race([closeStream(out), outError]);
    if (failure || !detected) {
      await fs.rm(temp, { force: true });
      tempFiles.delete(temp);
      addError(part.name, failure ?? typeMessage);
      return;
    }
    if (files[part.name]) {
      // A second file for the same field: keep the first.
      await fs.rm(temp, { force: true });
      tempFiles.delete(temp);
      return;
    }
    const finalName = `${name}.${detected.ext}`;
    const finalPath = path.join(folder, finalName);
    await fs.rename(temp, finalPath);
    tempFiles.delete(temp);
    files[part.name] = {
      url: `/uploads/${FOLDERS[kind]}/${finalName}`,
      path: finalPath,
      size,
      mime: detected.mime,
      originalName: cleanOriginalName(filename),
    };
  }

  async function handlePart(part: UploadHandlerPart): Promise<null> {
    const fileSpec = Object.hasOwn(spec, part.name) ? spec[part.name] : undefined;
    if (typeof part.filename === 'string') {
      // A file input. No file chosen: the browser sends an empty part without a name.
      if (!fileSpec) {
        await drain(part.data);
        return null;
      }
      if (part.filename === '') {
        let size = 0;
        for await (const chunk of part.data) size += chunk.byteLength;
        if (size > 0)
          addError(
            part.name,
            fileSpec.kind === 'image' ? UPLOAD_MESSAGES.imageType : UPLOAD_MESSAGES.audioType,
          );
        return null;
      }
      await storeFile(part, fileSpec.kind);
      return null;
    }
    const decoder = new TextDecoder();
    let text = '';
    let bytes = 0;
    for await (const chunk of part.data) {
      bytes += chunk.byteLength;
      fieldBytes += chunk.byteLength;
      if (bytes > FIELD_LIMIT || fieldBytes > FIELDS_TOTAL_LIMIT)
        throw new BodyTooLargeError('Field too large');
      text += decoder.decode(chunk, { stream: true });
    }
    text += decoder.decode();
    if (!Object.hasOwn(fields, part.name)) fields[part.name] = text;
    return null;
  }

  const capped = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: capStream(request.body, UPLOAD_LIMITS.body),
    duplex: 'half',
  } as RequestInit);

  try {
    await unstable_parseMultipartFormData(capped, handlePart);
  } catch (error) {
    await Promise.all(
      [...streams].map(
        (s) =>
          new Promise<void>((resolve) => {
            s.once('close', () => resolve());
            s.destroy();
          }),
      ),
    );
    await Promise.all([...tempFiles].map((f) => fs.rm(f, { force: true })));
    await discardUploads(files);
    if (error instanceof BodyTooLargeError) throw textResponse(413, 'Upload too large');
    // A disk problem of ours is a server error; anything else is the body's fault.
    if (error instanceof Error && 'syscall' in error) throw error;
    throw textResponse(400, 'Malformed or incomplete multipart body');
  }
  return { fields, files, fileErrors };
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

/** The audio file's duration as m:ss, or null when it cannot be read. */
export async function readAudioDuration(filePath: string): Promise<string | null> {
  try {
    const metadata = await parseFile(filePath, { duration: true, skipCovers: true });
    const seconds = metadata.format.duration;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return null;
    const total = Math.round(seconds);
    return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
  } catch {
    return null;
  }
}
