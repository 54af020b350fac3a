import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

import { type ViewedRequest, viewedRequest } from '~/document/page-cache.server';
import { writeErrorAnswer } from '~/platform/request-tracking.server';

import { mediaKeyFromUrl, mediaStore, SMALL_READ } from './media-store.server';
import { planFile } from './serve-file.server';

/**
 * The one place that answers `/uploads/*` (decision 050): uploaded covers, images and audio from
 * the media store (MEDIA_STORAGE), with byte ranges (so audio can seek), validators and caching
 * (`planFile`, the same answer as every stored file), written from the store straight to the
 * socket before Remix (decision 039: media at static speed).
 *
 * Audio files are checked against their tracks on every request, Range and conditional ones
 * included (decision 017): the file of a members-only track goes to a logged-in session only
 * (401 otherwise, before any byte, 304 or 206), never into a shared cache. Audio of public tracks
 * is shared-cacheable for a short while only, as a track can turn members-only; images keep
 * their year-long immutable caching (a cover is shown to every visitor). A track's kept original
 * and the upload of a track whose stream is still being made (or failed) go to administrators
 * only (decision 035): anyone else gets a 404, as for no file. Other methods than GET and HEAD
 * are a 405; anything that names no stored file is a 404.
 */

/** What the uploads need from above (files/ cannot import models, auth or services). */
export type MediaAccess = {
  /** Who may have the audio at this /uploads URL (a cached read; decisions 017 and 035). */
  audioAccess(url: string): Promise<'public' | 'members' | 'admin'>;
  /** The session's user of the request (its cookie), or null. */
  viewer(request: ViewedRequest): Promise<{ isAdmin: boolean } | null>;
  /** A file of audio sent from its first byte: a play start (analytics, decision 024). */
  countStart(request: ViewedRequest, url: string, status: number): void;
  /** `Cache-Control` of public audio (short: a track can turn members-only). */
  publicAudioCacheControl: string;
};

/** Caches may keep a members-only file for its member only, and must ask again each time. */
const MEMBERS_AUDIO_CACHE_CONTROL = 'private, no-cache';
/** Admin-only files, and the refusals that depend on the session. */
const PRIVATE_NO_STORE = 'private, no-store';

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

/** Express-style middleware: `/uploads` and everything under it, or `next()` for any other path. */
export const uploadsMiddleware =
  (access: MediaAccess) =>
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    if (pathname !== '/uploads' && !pathname.startsWith('/uploads/')) {
      next();
      return;
    }
    serveUpload(req, res, pathname, access).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else next(error);
    });
  };

/** A plain-text refusal (404, 401) with the headers the file would not have had. */
function refuse(res: ServerResponse, status: 401 | 404, text: string, personal: boolean): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (personal) {
    res.setHeader('Cache-Control', PRIVATE_NO_STORE);
    res.setHeader('Vary', 'Cookie');
  }
  res.end(text);
}

async function serveUpload(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  access: MediaAccess,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    writeErrorAnswer(res, pathname, 405, 'Method Not Allowed', { headers: { Allow: 'GET, HEAD' } });
    return;
  }
  // The file, as the tracks name it (`/uploads/%61udio/…` is the audio folder too): each
  // segment decoded once; null for anything that is not a media file (a 404).
  const key = mediaKeyFromUrl(pathname);
  if (key === null) return refuse(res, 404, 'Not Found', false);
  const request = viewedRequest(req);
  const filePath = `/uploads/${key}`;
  let cacheControl: string | undefined;
  let personal = false;
  let counted = false;
  if (key.startsWith('audio/')) {
    const rule = await access.audioAccess(filePath);
    if (rule === 'public') {
      cacheControl = access.publicAudioCacheControl;
      counted = true;
    } else {
      const user = await access.viewer(request);
      personal = true;
      if (rule === 'admin') {
        if (!user?.isAdmin) return refuse(res, 404, 'Not Found', true);
        cacheControl = PRIVATE_NO_STORE;
      } else {
        if (!user) return refuse(res, 401, 'Members only: log in to listen to this track.', true);
        cacheControl = MEMBERS_AUDIO_CACHE_CONTROL;
        counted = true;
      }
    }
  }
  const opened = await mediaStore().openFile(key);
  if (!opened) {
    if (personal) res.setHeader('Vary', 'Cookie');
    return refuse(res, 404, 'Not Found', false);
  }
  const plan = planFile(method, request.headers, key, opened.stat, cacheControl);
  if (personal) plan.headers.Vary = 'Cookie';
  if (counted && (plan.status === 200 || plan.status === 206))
    access.countStart(request, filePath, plan.status);
  res.statusCode = plan.status;
  for (const [name, value] of Object.entries(plan.headers)) res.setHeader(name, value);
  if (!plan.range) {
    opened.close();
    res.end();
    return;
  }
  const length = plan.range.end - plan.range.start + 1;
  if (opened.readSmall && length <= SMALL_READ) {
    const buffer = takeReadBuffer();
    res.end(await opened.readSmall(plan.range, buffer));
    // Sent (handed to the socket): the buffer serves the next request.
    res.once('finish', () => giveReadBuffer(buffer));
    return;
  }
  const stream: Readable = opened.read(plan.range);
  stream.once('error', () => res.destroy());
  res.once('close', () => stream.destroy());
  stream.pipe(res);
}
