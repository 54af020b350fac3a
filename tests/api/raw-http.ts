import http from 'node:http';

import { baseURL } from './helpers';

export type RawResponse = { status: number; body: string; headers: http.IncomingHttpHeaders };

/**
 * A request whose bytes and headers we control entirely (lengths, truncation). The
 * server may answer (413…) and close before the whole body is sent: the answer it gave
 * is what counts, so it is kept even when writing the rest fails.
 *
 * It sends the server's own `Origin` (as a browser on the site would) unless `headers` say
 * otherwise (`origin: null` sends none), and may set any header, `Host` included. `base`:
 * another server than the api project's.
 */
export function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: (string | Buffer)[],
  options: { cookie?: string; endEarly?: boolean; base?: string; origin?: string | null } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const base = options.base ?? baseURL;
    const url = new URL(path, base);
    let answer: RawResponse | null = null;
    const parts: Buffer[] = [];
    const finish = () => {
      if (answer) resolve({ ...answer, body: Buffer.concat(parts).toString('utf8') });
    };
    const req = http.request(
      url,
      {
        method,
        headers: {
          ...(options.origin === null ? {} : { Origin: options.origin ?? base }),
          ...(options.cookie ? { Cookie: options.cookie } : {}),
          ...headers,
        },
      },
      (res) => {
        answer = { status: res.statusCode ?? 0, body: '', headers: res.headers };
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', finish);
        res.on('error', finish);
        res.on('close', finish);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answer) finish();
      else if (options.endEarly && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
        // We cut the request ourselves before the server could answer.
        resolve({ status: 0, body: 'client aborted', headers: {} });
      } else reject(error);
    });
    (async () => {
      for (const chunk of chunks) {
        if (answer || req.destroyed) break;
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        for (let i = 0; i < buf.length && !answer && !req.destroyed; i += 64 * 1024) {
          if (!req.write(buf.subarray(i, i + 64 * 1024))) {
            await new Promise<void>((r) => {
              const done = () => {
                req.off('drain', done);
                req.off('close', done);
                r();
              };
              req.once('drain', done);
              req.once('close', done);
            });
          }
        }
      }
      if (options.endEarly) setTimeout(() => req.destroy(), 2_000);
      else if (!req.destroyed) req.end();
    })().catch(() => undefined);
  });
}
