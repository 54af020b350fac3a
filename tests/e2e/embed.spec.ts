import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import sharp from 'sharp';

import { wavBuffer } from '../helpers/wav';
import { unique } from './admin-helpers';
import { ADMIN, expect, test } from './fixtures';

/**
 * The embeddable player (decision 038) as another site shows it: a page served on 127.0.0.1
 * (another origin than the site's localhost) frames `/embed/tracks/{id}` with
 * `sandbox="allow-scripts allow-popups"`, as WordPress does. The embed plays, counts its play
 * for the embedding host through the beacon (Origin: null), locks a members-only track
 * without requesting any audio, and its script stays within 12 KB gzipped, measured on the
 * wire. `/` refuses to be framed. Each test makes its own tracks through the admin API.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'the embed is framed by a JS page');

let host: http.Server;
let hostOrigin = '';
let frames = '';

test.beforeAll(async () => {
  host = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html lang="en"><title>A blog</title><body>${frames}</body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

const frame = (src: string) =>
  `<iframe id="embed" src="${src}" width="600" height="120" title="Player" ` +
  'sandbox="allow-scripts allow-popups"></iframe>';

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Origin: baseURL },
  });
  const login = await api.post('/api/login', { data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

type Created = { id: number; title: string; audioFile: string };

async function createTrack(api: APIRequestContext, visibility: 'public' | 'members') {
  const cover = await sharp({
    create: { width: 400, height: 400, channels: 3, background: '#1d4ed8' },
  })
    .png()
    .toBuffer();
  const response = await api.post('/api/admin/tracks', {
    multipart: {
      title: unique('Embed Tone'),
      visibility,
      coverImage: { name: 'cover.png', mimeType: 'image/png', buffer: cover },
      audioFile: {
        name: 'tone.wav',
        mimeType: 'audio/wav',
        buffer: wavBuffer({ seconds: 2, toneHz: 440 }),
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = (await response.json()) as Created;
  return readyTrack(api, id);
}

/** The track once its stream is made (background transcoding, decision 035). */
async function readyTrack(api: APIRequestContext, id: number): Promise<Created> {
  let track: Created & { audioStatus?: string } = { id, title: '', audioFile: '' };
  await expect
    .poll(
      async () => {
        track = (await (await api.get(`/api/tracks/${id}`)).json()) as typeof track;
        return track.audioStatus;
      },
      { timeout: 60_000 },
    )
    .toBe('ready');
  return track;
}

/** The gzipped size of a response on the wire (Accept-Encoding: gzip, body not decoded). */
function gzippedSize(url: string): Promise<{ bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] }));
      })
      .on('error', reject);
  });
}

test('a sandboxed embed on another site plays, counts its play for that host, and fits 12 KB', async ({
  context,
  baseURL,
  accounts: _accounts,
}) => {
  // A plain page: the fixtures' `page` waits for the site's hydration, which a blog has not.
  const page = await context.newPage();
  const api = await adminApi(baseURL!);
  const track = await createTrack(api, 'public');
  try {
    const scripts: string[] = [];
    const beacons: { origin: string | null; status: number }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/build/embed/')) scripts.push(request.url());
    });
    page.on('response', async (response) => {
      if (
        new URL(response.url()).pathname === '/api/plays' &&
        response.request().method() === 'POST'
      ) {
        beacons.push({
          origin: (await response.request().allHeaders()).origin ?? null,
          status: response.status(),
        });
      }
    });
    frames = frame(`${baseURL}/embed/tracks/${track.id}`);
    await page.goto(`${hostOrigin}/`);
    const embed = page.frameLocator('#embed');
    await expect(embed.getByText(track.title)).toBeVisible();
    await expect(embed.getByRole('link', { name: /on Night Shore/ })).toHaveAttribute(
      'href',
      `${baseURL}/music/${track.id}`,
    );
    await embed.getByRole('button', { name: `Play ${track.title}` }).click();
    await expect(embed.getByRole('button', { name: `Pause ${track.title}` })).toBeVisible();
    const frameHandle = page.frame({ url: /\/embed\/tracks\// });
    await expect
      .poll(() => frameHandle!.evaluate(() => document.querySelector('audio')!.currentTime))
      .toBeGreaterThan(0.3);

    // The track is 2 s long: it ends, and the beacon goes out from the opaque origin.
    await expect.poll(() => beacons.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(beacons[0]).toEqual({ origin: 'null', status: 204 });

    // The budget, from the wire: the script the embed loaded, asked for with gzip.
    expect(scripts).toHaveLength(1);
    const size = await gzippedSize(scripts[0]!);
    expect(size.encoding).toBe('gzip');
    expect(size.bytes).toBeLessThanOrEqual(12 * 1024);

    // Counted for the host that framed it (the stats are written every 5 s).
    const embeddingHost = new URL(hostOrigin).host;
    await expect
      .poll(
        async () => {
          const stats = (await (await api.get('/api/admin/stats?days=7')).json()) as {
            topEmbedHosts: { host: string; plays: number }[];
          };
          return stats.topEmbedHosts.find((h) => h.host === embeddingHost)?.plays ?? 0;
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
  } finally {
    expect((await api.delete(`/api/admin/tracks/${track.id}`)).status()).toBe(204);
    await api.dispose();
  }
});

test('a members-only track is locked in the embed and no audio is requested', async ({
  context,
  baseURL,
  accounts: _accounts,
}) => {
  // A plain page: the fixtures' `page` waits for the site's hydration, which a blog has not.
  const page = await context.newPage();
  const api = await adminApi(baseURL!);
  const track = await createTrack(api, 'members');
  try {
    const media: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/uploads/audio/') || request.resourceType() === 'media') {
        media.push(request.url());
      }
    });
    const html = await (await api.get(`/embed/tracks/${track.id}`)).text();
    expect(html).not.toContain(track.audioFile);
    expect(html).not.toContain('/uploads/audio/');

    frames = frame(`${baseURL}/embed/tracks/${track.id}`);
    await page.goto(`${hostOrigin}/`);
    const embed = page.frameLocator('#embed');
    const lock = embed.getByRole('link', { name: /Members only — listen on Night Shore/ });
    await expect(lock).toHaveAttribute('href', `${baseURL}/music/${track.id}`);
    await expect(lock).toHaveAttribute('target', '_blank');
    await expect(embed.getByRole('button', { name: /^Play/ })).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    expect(media).toEqual([]);
  } finally {
    expect((await api.delete(`/api/admin/tracks/${track.id}`)).status()).toBe(204);
    await api.dispose();
  }
});

test('only /embed/* may be framed by another site: / refuses', async ({ context, baseURL }) => {
  const page = await context.newPage();
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/frame-ancestors|X-Frame-Options|Refused to display/i.test(message.text())) {
      refused.push(message.text());
    }
  });
  frames = `<iframe id="site" src="${baseURL}/" title="Site" width="600" height="400"></iframe>`;
  await page.goto(`${hostOrigin}/`);
  await expect.poll(() => refused.length).toBeGreaterThan(0);
  // The frame stays empty: no document of ours rendered in it.
  const child = page.frames().find((f) => f !== page.mainFrame());
  const content = child ? await child.evaluate(() => document.title).catch(() => '') : '';
  expect(content).not.toMatch(/Night Shore/);

  const home = await page.request.get(`${baseURL}/`);
  expect(home.headers()['x-frame-options']).toBe('DENY');
  expect(home.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const embed = await page.request.get(`${baseURL}/embed/playlist`);
  expect(embed.headers()['x-frame-options']).toBeUndefined();
  expect(embed.headers()['content-security-policy']).toContain('frame-ancestors *');
  expect(embed.headers()['set-cookie']).toBeUndefined();
});
