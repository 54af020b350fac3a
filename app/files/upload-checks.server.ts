import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

import { parseFile } from 'music-metadata';

import { env, uploadsDir } from '~/platform/env.server';
import { formatClock } from '~/utils/media-time';

/**
 * What an uploaded file may be, wherever it comes from (a form's part, streamed by
 * uploads.server.ts, or a finished resumable upload, decision 036): the size limits, the types
 * checked by magic bytes AND by the file name's extension (JPEG, PNG, WEBP for images; MP3 and
 * WAV for audio), the messages that say so, and the fresh random name it is stored under
 * (`<32 hex>.<ext>`, the extension from the detected type, never the client's name).
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

export const MB = 1024 * 1024;

const AUDIO_LIMIT = env.MAX_AUDIO_MB * MB;
export const UPLOAD_LIMITS: { image: number; audio: number; body: number } = {
  image: 10 * MB,
  audio: AUDIO_LIMIT,
  body: AUDIO_LIMIT + 10 * MB + 4 * MB,
};

/** A size in MB as the messages say it: `1024 MB`, `1.5 MB`. */
const mbText = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

export const FOLDERS: Record<UploadKind, string> = { image: 'images', audio: 'audio' };

export type Detected = { ext: string; mime: string; extensions: string[] };

const IMAGE_TYPES_TEXT = 'JPEG, PNG, or WEBP';
const AUDIO_TYPES_TEXT = 'MP3 or WAV';

export const UPLOAD_MESSAGES = {
  imageType: `Image must be a ${IMAGE_TYPES_TEXT} file`,
  audioType: `Audio must be an ${AUDIO_TYPES_TEXT} file`,
  imageSize: `Image must be at most ${mbText(UPLOAD_LIMITS.image)}`,
  audioSize: `Audio must be at most ${mbText(UPLOAD_LIMITS.audio)}`,
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

export function extensionOf(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The client's name, for display only: base name, no control characters, bounded. */
export function cleanOriginalName(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200);
}

export const freshName = () => randomBytes(16).toString('hex');

export const typeMessage = (kind: UploadKind) =>
  kind === 'image' ? UPLOAD_MESSAGES.imageType : UPLOAD_MESSAGES.audioType;
export const sizeMessage = (kind: UploadKind) =>
  kind === 'image' ? UPLOAD_MESSAGES.imageSize : UPLOAD_MESSAGES.audioSize;

const UPLOAD_GONE_MESSAGE = 'The upload is no longer available. Please upload the file again.';

/**
 * The checks a form's file part passes, for a file already on disk: the kind's size limit,
 * the type by its first bytes, and the client's file name's extension agreeing with it.
 */
export async function inspectFile(
  kind: UploadKind,
  source: string,
  clientName: string,
): Promise<{ ok: true; detected: Detected; size: number } | { ok: false; message: string }> {
  const stat = await fs.stat(source).catch(() => null);
  if (!stat?.isFile()) return { ok: false, message: UPLOAD_GONE_MESSAGE };
  if (stat.size > UPLOAD_LIMITS[kind]) return { ok: false, message: sizeMessage(kind) };
  const head = new Uint8Array(12);
  const handle = await fs.open(source, 'r');
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const detected = sniffType(kind, head.subarray(0, Math.min(head.length, stat.size)));
  if (!detected || !detected.extensions.includes(extensionOf(clientName))) {
    return { ok: false, message: typeMessage(kind) };
  }
  return { ok: true, detected, size: stat.size };
}

/**
 * A finished file from elsewhere under UPLOADS_DIR (a resumable upload, decision 036), held to
 * the checks a form's file part passes (the kind's size limit, the type by its first bytes and
 * by the client's file name), then moved into the kind's folder under a fresh name, as
 * `storeFile` does with a part. A rename, not a copy: both sit on the same disk. The file is
 * left where it was when it fails a check; a second adoption of the same file finds it gone.
 */
export async function adoptFile(
  kind: UploadKind,
  source: string,
  clientName: string,
): Promise<{ ok: true; file: StoredUpload } | { ok: false; message: string }> {
  const inspected = await inspectFile(kind, source, clientName);
  if (!inspected.ok) return inspected;
  const { detected, size } = inspected;
  const folder = path.join(uploadsDir(), FOLDERS[kind]);
  await fs.mkdir(folder, { recursive: true });
  const finalName = `${freshName()}.${detected.ext}`;
  const finalPath = path.join(folder, finalName);
  try {
    await fs.rename(source, finalPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { ok: false, message: UPLOAD_GONE_MESSAGE };
    }
    throw error;
  }
  return {
    ok: true,
    file: {
      url: `/uploads/${FOLDERS[kind]}/${finalName}`,
      path: finalPath,
      size,
      mime: detected.mime,
      originalName: cleanOriginalName(clientName),
    },
  };
}

/** The audio file's duration as m:ss, or null when it cannot be read. */
export async function readAudioDuration(filePath: string): Promise<string | null> {
  try {
    const metadata = await parseFile(filePath, { duration: true, skipCovers: true });
    const seconds = metadata.format.duration;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return null;
    // Whole seconds, h:mm:ss from an hour on (a long set is 1:02:30, not 62:30).
    return formatClock(Math.round(seconds));
  } catch {
    return null;
  }
}
