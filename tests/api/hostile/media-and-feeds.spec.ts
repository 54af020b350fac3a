import { type APIRequestContext, expect, test } from '@playwright/test';

import { baseURL, CROSS_ORIGIN, SAME_ORIGIN, useRoles } from '../helpers';
import { raw } from '../raw-http';
import { BAD_IDS, type Case, type Count, MB, type Role, runGroup, type Send } from './support';

/**
 * Hostile input on the surfaces of the mixes, feeds and embeds (decisions 035–038): the tus
 * endpoint, oEmbed, the embed pages, the podcast feeds and their signed enclosures, the peaks,
 * the chapters and the share page. See ./support.ts: never a 5xx, never a stack trace, the
 * contract's 4xx, nothing stored with the group's marker.
 */

const r = useRoles();
const sent: Count = { cases: 0 };
test.afterAll(() => {
  console.log(`[hostile-input/media-and-feeds] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

const get =
  (path: string): Send =>
  (ctx) =>
    ctx.get(path);

/** A GET whose refusal is a page (or a text answer) with `status`. */
const page = (path: string, status = 404): Case => ({
  name: path.slice(0, 80),
  html: true,
  status,
  send: get(path),
});

async function cookie(ctx: APIRequestContext): Promise<string> {
  const state = await ctx.storageState();
  return state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const TUS = '/api/admin/uploads';

/** A tus request with the context's cookies (Tus-Resumable 1.0.0 unless `headers` drop it). */
const tus =
  (
    method: string,
    path: string,
    headers: (m: string) => Record<string, string | undefined>,
    body: (m: string) => Buffer = () => Buffer.alloc(0),
    origin?: string,
  ): Send =>
  async (ctx, m) => {
    const all = { 'Tus-Resumable': '1.0.0', ...headers(m) };
    const sentHeaders = Object.fromEntries(
      Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const data = body(m);
    if (data.length > 0 || method === 'PATCH') sentHeaders['Content-Length'] = String(data.length);
    return raw(method, path, sentHeaders, data.length > 0 ? [data] : [], {
      cookie: await cookie(ctx),
      ...(origin ? { origin } : {}),
    });
  };
/** tus answers its refusals in text/plain: a message and no stack trace, not JSON. */
const tusCase = (name: string, role: Role, status: number, send: Send): Case => ({
  name,
  role,
  status,
  html: true,
  send,
});
const metadata = (m: string) => `filename ${b64(`${m}.wav`)},filetype ${b64('audio/wav')}`;
const create = (
  length: string | undefined,
  headers: Record<string, string | undefined> = {},
  origin?: string,
) =>
  tus(
    'POST',
    TUS,
    (m) => ({ 'Upload-Length': length, 'Upload-Metadata': metadata(m), ...headers }),
    undefined,
    origin,
  );

test('hostile input: the tus endpoint /api/admin/uploads', async () => {
  // One real upload (no marker in it) for the PATCH cases, removed at the end.
  const started = await raw(
    'POST',
    TUS,
    {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '100',
      'Upload-Metadata': `filename ${b64('hostile-target.wav')},filetype ${b64('audio/wav')}`,
    },
    [],
    { cookie: await cookie(r.admin) },
  );
  expect(started.status, started.body).toBe(201);
  const upload = new URL(String(started.headers.location), baseURL).pathname;
  const patch = (
    offset: string | undefined,
    type = 'application/offset+octet-stream',
    path = upload,
  ) =>
    tus(
      'PATCH',
      path,
      () => ({ 'Upload-Offset': offset, 'Content-Type': type }),
      (m) => Buffer.from(`0123456789${m}`),
    );
  try {
    // tus answers its own refusals in text/plain (what tus clients read), ours (401, 403,
    // 405) in JSON: `tusCase` checks for a message and no stack trace, not for JSON. Its
    // statuses are the protocol's (@tus/server 2): 400 for a bad Content-Type, 403 without
    // Upload-Offset, 409 for an offset that is not the upload's, 412 without Tus-Resumable.
    await runGroup(r, sent, 'media and feeds: tus', [
      {
        endpoint: 'POST /api/admin/uploads',
        cases: [
          tusCase('no session', 'anon', 401, create('100')),
          tusCase('not an admin', 'user', 403, create('100')),
          tusCase('no Upload-Length', 'admin', 400, create(undefined)),
          tusCase('Upload-Length -1', 'admin', 400, create('-1')),
          tusCase('Upload-Length abc', 'admin', 400, create('abc')),
          tusCase('Upload-Length 1.5', 'admin', 400, create('1.5')),
          tusCase('Upload-Length 10^20', 'admin', 413, create('1'.padEnd(21, '0'))),
          tusCase('1 byte over MAX_AUDIO_MB', 'admin', 413, create(String(1024 * MB + 1))),
          tusCase('no Tus-Resumable', 'admin', 412, create('100', { 'Tus-Resumable': undefined })),
          tusCase('from another site', 'admin', 403, create('100', {}, CROSS_ORIGIN.Origin)),
          tusCase('GET', 'admin', 405, get(TUS)),
        ],
      },
      {
        endpoint: 'PATCH /api/admin/uploads/:id',
        cases: [
          tusCase('no session', 'anon', 401, patch('0')),
          tusCase('not an admin', 'user', 403, patch('0')),
          tusCase('text/plain body', 'admin', 400, patch('0', 'text/plain')),
          tusCase('no Upload-Offset', 'admin', 403, patch(undefined)),
          tusCase('Upload-Offset -1', 'admin', 400, patch('-1')),
          tusCase('Upload-Offset abc', 'admin', 400, patch('abc')),
          tusCase('Upload-Offset past the end', 'admin', 409, patch('50')),
          tusCase('Upload-Offset 10^20', 'admin', 409, patch('1'.padEnd(21, '0'))),
          tusCase(
            'an unknown upload',
            'admin',
            404,
            patch('0', undefined, `${TUS}/${'0a'.repeat(16)}`),
          ),
          tusCase(
            'a traversal id',
            'admin',
            404,
            patch('0', undefined, `${TUS}/..%2F..%2Fpackage.json`),
          ),
          tusCase(
            'DELETE by a plain user',
            'user',
            403,
            tus('DELETE', upload, () => ({})),
          ),
        ],
      },
    ]);
  } finally {
    await raw('DELETE', upload, { 'Tus-Resumable': '1.0.0' }, [], {
      cookie: await cookie(r.admin),
    });
  }
});

test('hostile input: GET /oembed', async () => {
  const ours = (path: string) => encodeURIComponent(`${baseURL}${path}`);
  const q = (query: string, status: number): Case => ({
    name: query.slice(0, 80),
    status,
    send: get(`/oembed${query}`),
  });
  await runGroup(r, sent, 'media and feeds: oembed', [
    {
      endpoint: 'GET /oembed',
      cases: [
        q('', 400),
        q('?url=', 400),
        q('?url=%20%20', 404),
        q('?maxwidth=abc', 400),
        q(`?url=${encodeURIComponent('https://evil.example/music/1')}`, 404),
        q(`?url=${encodeURIComponent('javascript:alert(1)')}`, 404),
        q('?url=not%20a%20url', 404),
        q(`?url=${ours('/music/abc')}`, 404),
        q(`?url=${ours('/music/99999999')}`, 404),
        q(`?url=${ours('/music/..%2F..%2Fadmin')}`, 404),
        q(`?url=${ours('/admin')}`, 404),
        q(`?url=${ours(`/music/${'9'.repeat(6000)}`)}`, 404),
        q(`?url=${ours('/music/%00')}`, 404),
        q('?url[$ne]=x', 400),
      ],
    },
  ]);
});

test('hostile input: the embed pages', async () => {
  await runGroup(r, sent, 'media and feeds: embeds', [
    {
      endpoint: 'GET /embed/tracks/:id',
      cases: [
        ...BAD_IDS.map((id) => page(`/embed/tracks/${id}`)),
        page('/embed/tracks/99999999?theme=%3Cscript%3E&t=-1'),
        page(`/embed/tracks/abc?t=${'9'.repeat(5000)}`),
      ],
    },
    {
      endpoint: 'GET /embed/playlist?ids=',
      cases: [
        page('/embed/playlist?ids='),
        page('/embed/playlist?ids=%20'),
        page('/embed/playlist?ids=abc'),
        page('/embed/playlist?ids=-1'),
        page('/embed/playlist?ids=0,0'),
        page('/embed/playlist?ids=1,,2'),
        page('/embed/playlist?ids=1e3'),
        page('/embed/playlist?ids=1;2'),
        page('/embed/playlist?ids=1234567890'),
        page('/embed/playlist?ids=%00'),
        page(`/embed/playlist?ids=${Array.from({ length: 1500 }, () => '99999999').join(',')}`),
        page('/embed/playlist?ids=%7B%22%24ne%22%3A1%7D&theme=%3Cscript%3E'),
      ],
    },
  ]);
});

test('hostile input: the embed pages echo no theme or time', async () => {
  const tracks = (await (await r.anon.get('/api/tracks')).json()) as { id: number }[];
  const id = tracks[0]!.id;
  for (const query of [
    `theme=${encodeURIComponent('"><script>alert(1)</script>')}`,
    `t=${encodeURIComponent('</script><script>alert(1)</script>')}`,
    `t=-5&theme=${'x'.repeat(5000)}`,
    't=99999999999999999999999',
    't=1h99m99s',
  ]) {
    for (const path of [`/embed/tracks/${id}?${query}`, `/embed/playlist?ids=${id}&${query}`]) {
      const res = await r.anon.get(path);
      const body = await res.text();
      expect.soft(res.status(), path).toBe(200);
      expect.soft(body, path).not.toContain('<script>alert(1)');
      expect.soft(body, path).not.toContain('x'.repeat(100));
      expect.soft(body, path).toMatch(/data-theme="(dark|light)"/);
    }
  }
});

test('hostile input: the podcast feeds and signed enclosures', async () => {
  const future = String(Math.floor(Date.now() / 1000) + 3600);
  const sig = 'A'.repeat(43);
  await runGroup(r, sent, 'media and feeds: podcast', [
    {
      endpoint: 'POST /podcast.xml, GET /podcast/private/*',
      cases: [
        {
          name: 'POST /podcast.xml',
          html: true,
          status: 405,
          send: (ctx, m) => ctx.post('/podcast.xml', { form: { m }, headers: SAME_ORIGIN }),
        },
        page('/podcast/private/abc.xml'),
        page(`/podcast/private/${'a'.repeat(43)}.xml`),
        page(`/podcast/private/${'a'.repeat(3000)}.xml`),
        page('/podcast/private/..%2F..%2Fpackage.json'),
        page('/podcast/private/%00.xml'),
        page('/podcast/private/x.json'),
        page('/podcast/private/.xml'),
        page('/podcast/private/%7B%22%24ne%22%3Anull%7D.xml'),
        page('/podcast/private/%E0%A4%A.xml', 400),
      ],
    },
    {
      endpoint: 'GET /podcast/media/*',
      cases: [
        page(`/podcast/media/abc/${future}/${sig}/1/a.mp3`, 403),
        page(`/podcast/media/000000000000000000000000/${future}/${sig}/1/a.mp3`, 403),
        page(`/podcast/media/000000000000000000000000/1/${sig}/1/a.mp3`, 403),
        page(`/podcast/media/000000000000000000000000/-1/${sig}/1/a.mp3`, 403),
        page(`/podcast/media/000000000000000000000000/${'9'.repeat(30)}/${sig}/1/a.mp3`, 403),
        page(`/podcast/media/000000000000000000000000/abc/${sig}/1/a.mp3`, 403),
        page(`/podcast/media/000000000000000000000000/${future}/x/1/a.mp3`, 403),
        page(`/podcast/media/000000000000000000000000/${future}/${'A'.repeat(5000)}/1/a.mp3`, 403),
        page(`/podcast/media/000000000000000000000000/${future}/${sig}/abc/a.mp3`, 403),
        page(
          `/podcast/media/000000000000000000000000/${future}/${sig}/1/..%2F..%2Fpackage.json`,
          403,
        ),
        page(`/podcast/media/%24ne/${future}/${sig}/1/%00.mp3`, 403),
      ],
    },
  ]);
});

test('hostile input: peaks, chapters and the share page', async () => {
  await runGroup(r, sent, 'media and feeds: peaks, chapters, share', [
    {
      endpoint: 'GET /api/tracks/:id/peaks',
      cases: [
        ...BAD_IDS.map((id) => ({ name: id, status: 404, send: get(`/api/tracks/${id}/peaks`) })),
        { name: '99999999', status: 404, send: get('/api/tracks/99999999/peaks') },
        {
          name: 'POST',
          status: 405,
          send: (ctx, m) => ctx.post('/api/tracks/1/peaks', { data: { m }, headers: SAME_ORIGIN }),
        },
      ],
    },
    {
      endpoint: 'GET /music/:id/chapters.json',
      cases: [...BAD_IDS, '9999999999', '0000000000', '99999999'].map((id) => ({
        name: id,
        html: true,
        status: 404,
        send: get(`/music/${id}/chapters.json`),
      })),
    },
    {
      endpoint: 'GET /music/:id/share',
      cases: [...BAD_IDS, '9999999999', '99999999'].map((id) => ({
        name: id,
        html: true,
        status: 404,
        send: get(`/music/${id}/share`),
      })),
    },
  ]);
});

test('hostile input: sizes, times and ranges on real tracks and enclosures', async () => {
  const tracks = (await (await r.anon.get('/api/tracks')).json()) as { id: number }[];
  const page = encodeURIComponent(`${baseURL}/music/${tracks[0]!.id}`);
  for (const [query, status] of [
    ['maxwidth=-5', 400],
    ['maxwidth=0', 400],
    ['maxwidth=999999', 400],
    ['maxwidth=1e3', 400],
    ['maxheight=%00', 400],
    ['maxwidth=1&maxheight=1', 200],
  ] as const) {
    const res = await r.anon.get(`/oembed?url=${page}&${query}`);
    expect.soft(res.status(), query).toBe(status);
  }
  const timed = await r.anon.get(
    `/oembed?url=${page}${encodeURIComponent('?t="><script>alert(1)</script>')}`,
  );
  expect.soft(timed.status()).toBeLessThan(500);
  expect.soft(await timed.text()).not.toContain('<script>alert(1)');

  const feed = await r.anon.get('/podcast.xml?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E&page=-1');
  expect(feed.status()).toBe(200);
  const xml = await feed.text();
  expect.soft(xml).not.toContain('<script>alert(1)');
  const enclosure = /<enclosure url="([^"]+)"/.exec(xml)?.[1];
  test.skip(!enclosure, 'no public mix in the feed to range over');
  const path = new URL(enclosure!.replaceAll('&amp;', '&')).pathname;
  for (const range of [
    'bytes=99999999999-',
    'bytes=-0',
    'bytes=abc',
    'bytes=5-1',
    'bytes=0-1,2-3,4-5',
    `bytes=${'0-0,'.repeat(500)}0-0`,
    'items=0-1',
  ]) {
    const res = await raw('GET', path, { Range: range }, [], { origin: null });
    expect.soft(res.status, range).toBeLessThan(500);
    expect.soft([200, 206, 416], `${range}: ${res.status}`).toContain(res.status);
  }
});
