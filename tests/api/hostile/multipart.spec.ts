import net from 'node:net';

import { expect, test } from '@playwright/test';

import {
  baseURL,
  disposeRoles,
  type FilePart,
  files,
  type Roles,
  roles,
  SAME_ORIGIN,
  unique,
} from '../helpers';
import { cookieOf, marked, scan } from './support';

/**
 * A body that ends before its Content-Length: a complete multipart body under a longer
 * Content-Length, half-closed, must store nothing (no item, no upload file, no `.part`).
 */

let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
});

/**
 * Send `body` under a `Content-Length` that promises `extra` more bytes, then half-close
 * the connection (FIN) and read whatever answer comes. The multipart body itself is
 * complete (closing boundary included): only the byte count says it was cut short.
 */
function halfClosed(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  delayMs: number,
  extra = 1_000,
): Promise<{ status: number; text: string }> {
  const url = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        `Origin: ${baseURL}`,
        `Content-Length: ${body.length + extra}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(body);
      setTimeout(() => socket.end(), delayMs);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text });
    });
  });
}

function multipartOf(boundary: string, parts: Record<string, string | FilePart>): Buffer {
  const out: Buffer[] = [];
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') {
      out.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        ),
      );
    } else {
      out.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.mimeType}\r\n\r\n`,
        ),
        value.buffer,
        Buffer.from('\r\n'),
      );
    }
  }
  out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

test('a complete multipart body under a longer Content-Length, half-closed, stores nothing', async () => {
  test.setTimeout(120_000);
  const m = `halfclosed${unique()}`;
  const cookie = await cookieOf(r, 'admin');
  const target = (await (
    await r.admin.post('/api/admin/gallery', {
      multipart: { title: `Target ${m.slice(10)}`, image: files.cover() },
      headers: SAME_ORIGIN,
    })
  ).json()) as { id: number; title: string; imageUrl: string };

  const track = (x: string) => ({
    title: `Track ${x}`,
    artist: 'Night Shore',
    duration: '3:45',
    featured: 'false',
    coverImage: marked(files.cover(), x),
    audioFile: marked(files.mp3(), x),
  });
  const image = (x: string) => ({
    title: `Image ${x}`,
    description: x,
    image: marked(files.cover(), x),
  });
  const post = (x: string) => ({
    title: `Post ${x}`,
    slug: `post-${x.toLowerCase()}`,
    content: x,
    excerpt: x,
    category: 'NEWS',
    image: marked(files.cover(), x),
  });
  const sends: [string, string, Record<string, string | FilePart>][] = [
    ['POST', '/api/admin/gallery', image(m)],
    ['PUT', `/api/admin/gallery/${target.id}`, image(m)],
    ['POST', '/api/admin/tracks', track(m)],
    ['POST', '/api/admin/blog', post(m)],
    ['POST', '/admin/gallery/new', image(m)],
    ['POST', `/admin/gallery/${target.id}/edit`, image(m)],
    ['POST', '/admin/tracks/new', track(m)],
    ['POST', '/admin/blog/new', post(m)],
  ];
  // FIN with the body, while the server reads it, and after it could have answered.
  for (const delayMs of [0, 30, 300]) {
    for (const [method, path, parts] of sends) {
      const boundary = `----half${unique()}`;
      const answer = await halfClosed(
        method,
        path,
        { 'Content-Type': `multipart/form-data; boundary=${boundary}`, Cookie: cookie },
        multipartOf(boundary, parts),
        delayMs,
      );
      expect.soft(answer.status, `${method} ${path}, FIN after ${delayMs} ms: refused`).toBe(400);
    }
  }
  // The server may still be working on a request whose client is gone: give it time.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const after = scan(m);
  expect(after.hits, 'nothing stored').toEqual([]);
  // Every file sent carries the marker: a stored one, or a `.part` left behind, is a hit.
  expect(after.fileHits, 'no upload file left').toEqual([]);
  const kept = (await (await r.anon.get('/api/gallery')).json()) as {
    id: number;
    title: string;
    imageUrl: string;
  }[];
  expect(kept.find((g) => g.id === target.id)).toMatchObject({
    title: target.title,
    imageUrl: target.imageUrl,
  });
  await r.admin.delete(`/api/admin/gallery/${target.id}`, { headers: SAME_ORIGIN });
});
