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

async function createTrack(api: APIRequestContext, visibility: 'public' | 'members', seconds = 2) {
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
        buffer: wavBuffer({ seconds, toneHz: 440, bursts: seconds > 4 ? [seconds / 2] : [] }),
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
    // Its peaks are for members too: no waveform.
    await expect(embed.getByTestId('embed-waveform')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    expect(media).toEqual([]);
  } finally {
    expect((await api.delete(`/api/admin/tracks/${track.id}`)).status()).toBe(204);
    await api.dispose();
  }
});

type Rgb = [number, number, number];
const rgb = (css: string): Rgb => {
  const m = /^rgba?\((\d+), (\d+), (\d+)/.exec(css);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
};
/** WCAG 2 contrast ratio of two sRGB colours. */
function contrast(a: Rgb, b: Rgb): number {
  const lum = (c: Rgb) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * The site's theme as its pages get it (/theme.css): the dark palette's primary colour (the
 * last one: a dark or a system appearance ends with it) and the two font families.
 */
async function siteTheme(api: APIRequestContext) {
  const css = await (await api.get('/theme.css')).text();
  const primary = [...css.matchAll(/--primary:([^;]+);/g)].at(-1)?.[1];
  const heading = /--font-heading:'([^']+)'/.exec(css)?.[1];
  const body = /--font-body:'([^']+)'/.exec(css)?.[1];
  if (!primary || !heading || !body) throw new Error('no theme in /theme.css');
  return { primary: `hsl(${primary})`, heading, body };
}

test("the embed wears the site's theme: its accent and fonts, from this site, readable", async ({
  context,
  baseURL,
  accounts: _accounts,
}) => {
  const page = await context.newPage();
  const api = await adminApi(baseURL!);
  const track = await createTrack(api, 'public');
  try {
    const hosts = new Set<string>();
    const fonts: { url: string; status: number }[] = [];
    page.on('request', (request) => {
      if (request.frame() !== page.mainFrame()) hosts.add(new URL(request.url()).origin);
    });
    page.on('response', (response) => {
      if (response.request().resourceType() === 'font') {
        fonts.push({ url: response.url(), status: response.status() });
      }
    });
    frames = frame(`${baseURL}/embed/tracks/${track.id}`);
    const embed = page.frameLocator('#embed');
    /** The embed, framed again. */
    const open = async () => {
      await page.goto(`${hostOrigin}/`);
      await expect(embed.getByText(track.title)).toBeVisible();
      return page.frame({ url: /\/embed\/tracks\// })!;
    };
    let frameHandle = await open();

    /** The site's primary colour as the browser computes it (in the framing page). */
    const computed = (colour: string) =>
      page.evaluate((value) => {
        const probe = document.createElement('i');
        probe.style.color = value;
        document.body.append(probe);
        const result = getComputedStyle(probe).color;
        probe.remove();
        return result;
      }, colour);
    const looks = () =>
      frameHandle.evaluate(() => {
        const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        return {
          accent: style('#play').backgroundColor,
          icon: style('#play').color,
          background: style('body').backgroundColor,
          text: style('#title').color,
          muted: style('#artist').color,
          titleFont: style('#title').fontFamily,
          bodyFont: style('body').fontFamily,
        };
      });
    // The accent is the site's primary colour, the fonts its fonts (read together, the frame
    // opened again if they differ: another test may be changing the theme, under its lock).
    await expect
      .poll(async () => {
        const theme = await siteTheme(api);
        const seen = await looks();
        if (seen.accent !== (await computed(theme.primary))) frameHandle = await open();
        return (
          seen.accent === (await computed(theme.primary)) &&
          seen.titleFont.split(',')[0]!.replace(/"/g, '') === theme.heading &&
          seen.bodyFont.split(',')[0]!.replace(/"/g, '') === theme.body
        );
      })
      .toBe(true);

    // Readable: text 4.5:1 on the background, the play button 3:1 against it and its icon.
    const seen = await looks();
    const background = rgb(seen.background);
    expect(contrast(rgb(seen.text), background)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(rgb(seen.muted), background)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(rgb(seen.accent), background)).toBeGreaterThanOrEqual(3);
    expect(contrast(rgb(seen.icon), rgb(seen.accent))).toBeGreaterThanOrEqual(3);

    // The fonts load in the sandboxed frame (an opaque origin: the files answer with CORS),
    // from this site; nothing comes from another host.
    const { heading } = await siteTheme(api);
    await expect
      .poll(() =>
        frameHandle.evaluate(
          (family) => [...document.fonts].some((f) => f.family === family && f.status === 'loaded'),
          heading,
        ),
      )
      .toBe(true);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font.url.startsWith(`${baseURL}/build/`), font.url).toBe(true);
      expect(font.status, font.url).toBe(200);
    }
    expect([...hosts]).toEqual([new URL(baseURL!).origin]);

    // ?theme=light: a light background, still readable.
    frames = frame(`${baseURL}/embed/tracks/${track.id}?theme=light`);
    await page.goto(`${hostOrigin}/`);
    await expect(embed.locator('html')).toHaveAttribute('data-theme', 'light');
    const light = await page.frame({ url: /theme=light/ })!.evaluate(() => ({
      background: getComputedStyle(document.body).backgroundColor,
      text: getComputedStyle(document.querySelector('#title')!).color,
      accent: getComputedStyle(document.querySelector('#play')!).backgroundColor,
    }));
    expect(Math.min(...rgb(light.background))).toBeGreaterThan(200);
    expect(contrast(rgb(light.text), rgb(light.background))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(rgb(light.accent), rgb(light.background))).toBeGreaterThanOrEqual(3);
  } finally {
    expect((await api.delete(`/api/admin/tracks/${track.id}`)).status()).toBe(204);
    await api.dispose();
  }
});

test('a waveform when the track has peaks, in the page itself: a click and the keys seek', async ({
  context,
  baseURL,
  accounts: _accounts,
}) => {
  const page = await context.newPage();
  const api = await adminApi(baseURL!);
  // 20 s of a tone with a burst in the middle; its peaks are made with its stream.
  const track = await createTrack(api, 'public', 20);
  try {
    await expect
      .poll(async () => (await api.get(`/api/tracks/${track.id}/peaks`)).status())
      .toBe(200);
    const peaksRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/peaks')) peaksRequests.push(request.url());
    });
    frames = frame(`${baseURL}/embed/tracks/${track.id}`);
    await page.goto(`${hostOrigin}/`);
    const embed = page.frameLocator('#embed');
    const wave = embed.getByTestId('embed-waveform');
    await expect(wave).toHaveClass(/\bwave\b/);
    await expect(wave.locator('#wave-path')).toHaveAttribute('d', /^M0 [\d.]+L/);
    const box = (await wave.boundingBox())!;
    expect(box.width).toBeGreaterThan(200);

    // The keys of a slider: End, Home, arrows.
    const slider = embed.getByRole('slider', { name: 'Seek' });
    const time = embed.locator('#time');
    const played = wave.locator('#wave-progress');
    await slider.focus();
    await page.keyboard.press('End');
    await expect(slider).toHaveAttribute('aria-valuetext', '0:20 of 0:20');
    await expect(time).toHaveText('0:20 / 0:20');
    await page.keyboard.press('Home');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuetext', '0:05 of 0:20');
    await expect(time).toHaveText('0:05 / 0:20');
    // A quarter of the waveform is drawn as played.
    const columns = Number((await wave.locator('svg').getAttribute('viewBox'))!.split(' ')[2]);
    expect(Number(await played.getAttribute('width'))).toBeCloseTo(columns / 4, 1);

    // A click three quarters along the waveform seeks there.
    await wave.click({ position: { x: box.width * 0.75, y: box.height / 2 } });
    await expect(slider).toHaveAttribute('aria-valuetext', /^0:1[4-6] of 0:20$/);
    await expect(time).toHaveText(/^0:1[4-6] \/ 0:20$/);

    // Then it plays from there.
    await embed.getByRole('button', { name: `Play ${track.title}` }).click();
    const frameHandle = page.frame({ url: /\/embed\/tracks\// })!;
    await expect
      .poll(() => frameHandle.evaluate(() => document.querySelector('audio')!.currentTime))
      .toBeGreaterThan(14);
    // No request for the peaks: the page carried them.
    expect(peaksRequests).toEqual([]);
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
