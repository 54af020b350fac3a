import type {
  ActionFunctionArgs,
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  LoaderFunctionArgs,
} from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';

import { applyDocumentCacheHeaders } from '~/document/cache-headers.server';
import { deferScripts } from '~/document/html-rewrite.server';
import { pageCacheMiddleware } from '~/document/page-cache.server';
import { cachedRender, recordRender, renderCacheKey } from '~/document/render-memo.server';
import { NonceProvider } from '~/document/request-info';
import {
  applyBaseSecurityHeaders,
  applyDocumentSecurityHeaders,
  createNonce,
} from '~/document/security-headers.server';
import { uploadsMiddleware } from '~/files/serve-uploads.server';
import { env } from '~/platform/env.server';
import { logError, requestIdOf } from '~/platform/request-tracking.server';
import { startApp } from '~/platform/startup.server';
import { stopApp as stopServer } from '~/platform/startup.server';
import { countPageView, flushStats } from '~/services/analytics.server';
import { MEDIA_ACCESS } from '~/services/media-access.server';

// The server answers its first request only once the database is connected, its indexes
// exist and the demo content is seeded (the server imports the build before listening).
await startApp();

// What our HTTP server (server/index.ts) takes from the build, through `build.entry.module`:
// the first middleware (request ids, client address, base headers, JSON request log,
// in-flight count), the trust boundary (allowed hosts, same origin for state changes), the
// resumable uploads (tus at /api/admin/uploads, decision 036), the
// last middleware (errors no route answered), the listening port (for links when SITE_URL is
// unset) and the graceful stop (requests in flight finish, the database closes). See
// docs/decisions/013-own-server-module.md and 028-trust-boundary.md.
export { handleResumableUpload } from '~/api/resumable-upload-endpoint.server';
export { answerError, trackRequest } from '~/platform/request-tracking.server';
export { serverListening } from '~/platform/site-origin.server';
export { guardRequest } from '~/platform/trust-boundary.server';
// Before the routes (decision 039): anonymous public pages from the page cache, counted as
// views; everything under /uploads straight from the media store, the one place that answers
// it (decision 050); the routes' answers, remembered when public.
export const servePage = pageCacheMiddleware(countPageView);
export const serveMedia = uploadsMiddleware(MEDIA_ACCESS);
export { answerAndRemember } from '~/document/page-cache.server';
// Before the page cache and Remix (decision 053): the fediverse actor, WebFinger, NodeInfo, the
// inboxes, and the ActivityStreams answers of the site's objects.
export { federationMiddleware as serveFederation } from '~/fediverse/mount.server';
/** Graceful stop (server/http-server.ts): requests in flight, then the last counts, then the database. */
export const stopApp = (signal: string) => stopServer(signal, flushStats);

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  // Visits of public pages, counted without cookies (decision 024).
  countPageView(request, responseStatusCode);
  const callback = isbot(request.headers.get('user-agent') ?? '') ? 'onAllReady' : 'onShellReady';
  const nonce = createNonce();
  const requestId = requestIdOf(request);
  // Anonymous renders are memoised by URL + loader data (app/document/render-memo.server.ts).
  const cacheKey = env.RENDER_MEMO
    ? renderCacheKey(request, responseStatusCode, responseHeaders, remixContext)
    : null;
  const cached = cacheKey ? cachedRender(cacheKey, nonce) : null;
  if (cached !== null) {
    responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
    applyDocumentSecurityHeaders(responseHeaders, nonce);
    applyDocumentCacheHeaders(request, responseHeaders, responseStatusCode);
    return new Response(cached, { headers: responseHeaders, status: responseStatusCode });
  }
  const recorder = cacheKey ? recordRender(cacheKey, nonce) : null;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider nonce={nonce} requestId={requestId}>
        <RemixServer
          context={remixContext}
          url={request.url}
          abortDelay={ABORT_DELAY}
          nonce={nonce}
        />
      </NonceProvider>,
      {
        nonce,
        [callback]() {
          shellRendered = true;
          // Scripts once the page has loaded (app/document/html-rewrite.server.ts).
          const html = deferScripts();
          const body = recorder ? html.pipe(recorder.stream) : html;
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          applyDocumentSecurityHeaders(responseHeaders, nonce);
          applyDocumentCacheHeaders(request, responseHeaders, responseStatusCode);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(html);
        },
        onShellError(error: unknown) {
          recorder?.discard();
          reject(error);
        },
        onError(error: unknown) {
          recorder?.discard();
          responseStatusCode = 500;
          if (shellRendered) logError(error, request, 'render error');
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/** Single-fetch `.data` answers: the base headers (they are never rendered as a page). */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applyBaseSecurityHeaders(response.headers);
  applyDocumentCacheHeaders(request, response.headers, response.status);
  return response;
};

/**
 * Unexpected errors from loaders, actions and rendering: one JSON line on stderr with the
 * request id, which the error page shows ("Error reference"). The browser never sees a
 * stack trace (Remix sanitizes errors in production).
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  // Unknown URLs and methods are answers, not failures.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logError(error, request, 'unhandled error');
}
