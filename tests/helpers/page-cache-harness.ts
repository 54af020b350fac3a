import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * The page cache's two halves (its middleware and `answerAndRemember`) driven as the server
 * drives them (server/http-server.ts), without sockets: a request goes to the middleware; when
 * it passes on, the "routes" (`render`) answer through `answerAndRemember` and the body is read
 * to its end, as `sendResponse` reads it. Renders are counted; nothing here reads a clock.
 */

type PageCacheModule = {
  pageCacheMiddleware: (
    countView: (request: unknown, status: number) => void,
  ) => (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  answerAndRemember: (req: IncomingMessage, handle: () => Promise<Response>) => Promise<Response>;
};

export type Answer = {
  status: number;
  body: string;
  headers: Record<string, string>;
  rendered: boolean;
};

/** The routes: the path, and the request's headers (an Accept, for content negotiation). */
export type Render = (path: string, headers: IncomingHttpHeaders) => Promise<Response>;

/** A page as the routes answer it: public, a CSP nonce in a header and in the body. */
export function pageResponse(text: string, nonce = `n${Math.random().toString(36).slice(2)}`) {
  return new Response(`<!doctype html><html><body nonce="${nonce}">${text}</body></html>`, {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=30',
      'Content-Security-Policy': `script-src 'nonce-${nonce}'`,
    },
  });
}

export function harness(cache: PageCacheModule, render: Render) {
  const counts = { renders: 0, views: 0 };
  const middleware = cache.pageCacheMiddleware(() => {
    counts.views += 1;
  });

  function request(
    path: string,
    requestHeaders: IncomingHttpHeaders = {},
  ): { answer: Promise<Answer>; close: () => void } {
    const req = {
      method: 'GET',
      url: path,
      headers: { host: 'cache.test', ...requestHeaders },
    } as IncomingMessage;
    const emitter = new EventEmitter();
    const headers: Record<string, string> = {};
    let close = () => {
      emitter.emit('close');
    };
    const answer = new Promise<Answer>((resolve, reject) => {
      const res = Object.assign(emitter, {
        statusCode: 200,
        setHeader(name: string, value: string) {
          headers[name.toLowerCase()] = value;
        },
        end(body: Buffer) {
          resolve({ status: res.statusCode, body: body.toString(), headers, rendered: false });
          emitter.emit('close');
        },
      });
      close = () => {
        emitter.emit('close');
      };
      const next = (error?: unknown) => {
        if (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        counts.renders += 1;
        cache
          .answerAndRemember(req, () => render(path, req.headers))
          .then(async (response) => {
            const body = await response.text();
            const own: Record<string, string> = {};
            response.headers.forEach((value, name) => {
              own[name] = value;
            });
            resolve({ status: response.status, body, headers: own, rendered: true });
            emitter.emit('close');
          })
          .catch(reject);
      };
      middleware(req, res as unknown as ServerResponse, next);
    });
    return { answer, close: () => close() };
  }

  return {
    counts,
    get: (path: string, headers?: IncomingHttpHeaders) => request(path, headers).answer,
    request,
  };
}

/** A promise and its resolver: a render held until the test lets it finish. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

/**
 * A page the routes answer with `text` until `hold(next)`: from then on with `next`, each render
 * held until `release()`. The shape of a stale-while-revalidate test: a write makes the kept
 * copy stale, one request renders the page again, the others are served the stale copy.
 */
export function heldPage(cache: PageCacheModule, text: string) {
  const held = gate();
  let shown = text;
  let holding = false;
  const h = harness(cache, async () => {
    const now = shown;
    if (holding) await held.wait;
    return pageResponse(now);
  });
  return {
    ...h,
    hold(next: string) {
      shown = next;
      holding = true;
    },
    release: held.open,
  };
}
