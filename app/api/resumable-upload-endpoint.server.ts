import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Server } from '@tus/server';

import { getUserOfCookie } from '~/auth/auth.server';
import {
  createResumableUploadServer,
  getResumableUpload,
  RESUMABLE_UPLOADS_PATH,
  resumableUploadPath,
} from '~/files/resumable-upload-store.server';
import { type Next, writeErrorAnswer } from '~/platform/request-tracking.server';

/**
 * `/api/admin/uploads[/<id>]`: the tus endpoint (app/files/resumable-upload-store.server.ts), mounted
 * by our HTTP server (server/http-server.ts) after the trust boundary, so its same-origin check
 * applies to every POST, PATCH and DELETE. In front of tus, on every request:
 *
 * - 401 JSON without a session, 403 for a non-admin (the body is dropped after the answer by
 *   the request tracking, as for any early answer);
 * - GET is 405: a finished upload is read only by attaching it to a track;
 * - a path that is not exactly the endpoint or `endpoint/<id>` is a 404 before tus sees it;
 * - an upload started by another admin is a 404 to this one (HEAD, PATCH, DELETE);
 * - the admin's id goes to tus (by the Node request, in `uploaders`), which records it as the
 *   upload's owner.
 */

let tus: Server | null = null;
/** The admin each request was let through for, until the request is collected. */
const uploaders = new WeakMap<object, number>();

/** The guard's refusals: JSON `{ error }`, as everywhere under /api. */
function answerJson(
  response: ServerResponse,
  status: number,
  error: string,
  headers: Record<string, string> = {},
): void {
  writeErrorAnswer(response, RESUMABLE_UPLOADS_PATH, status, error, { headers });
}

/**
 * A creation whose body (creation-with-upload) is declared longer than its Upload-Length:
 * refused before tus makes any file. (A chunked body that runs over is stopped by tus, and the
 * files it made are removed: `onResponseError` in app/files/resumable-upload-store.server.ts.)
 */
function creationBodyTooLong(request: IncomingMessage): boolean {
  // Only a valid length is compared: tus answers a malformed one (400) itself.
  const header = request.headers['upload-length'];
  if (typeof header !== 'string' || !/^\d{1,15}$/.test(header)) return false;
  const body = Number(request.headers['content-length'] ?? 0);
  return Number.isSafeInteger(body) && body > Number(header);
}

/** Express-style middleware: the tus endpoint, or `next()` for any other path. */
export function handleResumableUpload(
  request: IncomingMessage,
  response: ServerResponse,
  next: Next,
): void {
  const pathname = (request.url ?? '/').split('?')[0]!;
  if (pathname !== RESUMABLE_UPLOADS_PATH && !pathname.startsWith(`${RESUMABLE_UPLOADS_PATH}/`)) {
    next();
    return;
  }
  const named = resumableUploadPath(pathname);
  (async () => {
    const user = await getUserOfCookie(request.headers.cookie);
    if (!user) return answerJson(response, 401, 'Authentication required');
    if (!user.isAdmin) return answerJson(response, 403, 'Administrator access required');
    if (request.method === 'GET') {
      return answerJson(response, 405, 'Method Not Allowed', {
        Allow: 'OPTIONS, HEAD, POST, PATCH, DELETE',
      });
    }
    if (!named) return answerJson(response, 404, 'Upload not found');
    if (named !== 'endpoint') {
      const upload = await getResumableUpload(named.id);
      if (upload && upload.owner !== user.id) return answerJson(response, 404, 'Upload not found');
    }
    if (request.method === 'POST' && creationBodyTooLong(request)) {
      return answerJson(response, 413, 'The body is longer than its Upload-Length');
    }
    uploaders.set(request, user.id);
    tus ??= createResumableUploadServer((nodeRequest) => uploaders.get(nodeRequest));
    await tus.handle(request, response);
  })().catch(next);
}
