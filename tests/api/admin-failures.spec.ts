import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';
import { MongoClient } from 'mongodb';

import {
  apiLogin,
  runScriptFor,
  type StandaloneStore,
  startServer,
  startStandaloneStore,
  type TestServer,
} from '../security/server';

/**
 * Every admin action when the database refuses its write (decision 050, one failure policy):
 * the exception is logged with the request id of the answer, the admin is shown the generic
 * message (the form's alert, or the toast on the page the action returns to; the JSON API its
 * documented 500), and nothing of the exception reaches the page. Table-driven over every
 * action of the back office and every /api/admin route that writes.
 *
 * The failure is the store's own (`failCommand` on the collection the action writes: the
 * database answers the write with an error, as MongoDB does when a write is refused), on a
 * store and a production server of their own, as in db-failures.spec.ts. The server's log is
 * read from its output.
 */
test.describe.configure({ mode: 'serial' });

const DB = 'nightshore';
/** What a page says when an action failed on our side (SERVER_FAILURE_MESSAGE). */
const GENERIC = 'Something went wrong on our side. Please try again in a moment.';
/** The JSON surface's 500 (docs/api.md). */
const API_GENERIC = 'Internal server error';
/** Anything of the database's exception. */
const EXCEPTION_TEXT = /failpoint|Failing command|MongoServerError|OperationFailed|at \S+ \(/i;
const ADMIN = { username: 'failureadmin', password: 'admin-failure-password-1' };
const WRITES = ['insert', 'update', 'delete', 'findAndModify'];

const FIXTURES = path.resolve('tests/fixtures');
const file = (name: string, type: string) =>
  new File([new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)))], name, { type });
const cover = () => file('cover.jpg', 'image/jpeg');
const audio = () => file('short.mp3', 'audio/mpeg');

let dir: string;
let store: StandaloneStore | undefined;
let app: TestServer;
let admin: MongoClient;
let cookie: string;

/** The records the actions work on (their writes fail, so they stay as they are). */
const ids = { track: 0, image: 0, post: 0, show: 0, message: 0, subscriber: 0 };

/** `multipart`: sent as the upload forms send it, even without a file. */
type Body = { form?: Record<string, string | File>; json?: unknown; multipart?: boolean };

function send(method: string, url: string, body: Body = {}): Promise<Response> {
  const headers: Record<string, string> = { Cookie: cookie, Origin: app.url };
  let payload: BodyInit | undefined;
  if (body.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body.form) {
    const hasFile = Object.values(body.form).some((v) => v instanceof File);
    if (hasFile || body.multipart) {
      const form = new FormData();
      for (const [name, value] of Object.entries(body.form)) form.set(name, value);
      payload = form;
    } else {
      payload = new URLSearchParams(body.form as Record<string, string>);
    }
  }
  return fetch(`${app.url}${url}`, { method, headers, body: payload, redirect: 'manual' });
}

async function created(response: Response): Promise<number> {
  const text = await response.text();
  expect(response.status, `${text}\n${app.output().slice(-3000)}`).toBe(201);
  return (JSON.parse(text) as { id: number }).id;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-admin-failures-'));
  store = await startStandaloneStore(['--memory']);
  admin = new MongoClient(store.uri, { serverSelectionTimeoutMS: 5000 });
  await admin.connect();
  runScriptFor(dir, 'scripts/create-admin.ts', {
    MONGODB_URI: store.uri,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  app = await startServer(dir, { MONGODB_URI: store.uri, SITE_URL: 'http://localhost' });
  cookie = await apiLogin(app.url, ADMIN.username, ADMIN.password);

  ids.track = await created(
    await send('POST', '/api/admin/tracks', {
      form: { title: 'Failure track', coverImage: cover(), audioFile: audio() },
    }),
  );
  ids.image = await created(
    await send('POST', '/api/admin/gallery', { form: { title: 'Failure image', image: cover() } }),
  );
  ids.post = await created(
    await send('POST', '/api/admin/blog', {
      form: { ...postFields('failure-post'), image: cover() },
    }),
  );
  ids.show = await created(await send('POST', '/api/admin/shows', { json: showFields() }));
  ids.message = await created(
    await send('POST', '/api/contact', {
      json: {
        name: 'Failure Visitor',
        email: 'failure-visitor@example.com',
        subject: 'General Question',
        message: 'A message for the delete that fails.',
      },
    }),
  );
  const email = 'failure-subscriber@example.com';
  expect((await send('POST', '/api/subscribe', { json: { name: 'Fan', email } })).status).toBe(201);
  const subscriber = await admin.db(DB).collection('subscribers').findOne({ email });
  ids.subscriber = Number(subscriber?.id);
});

test.afterEach(async () => {
  await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
});

test.afterAll(async () => {
  await admin?.close();
  if (app) {
    app.proc.kill('SIGTERM');
    await app.exited;
  }
  await store?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function postFields(slug: string) {
  return {
    title: 'Failure post',
    slug,
    content: 'The content of a post whose save fails.',
    excerpt: 'A post whose save fails.',
    category: 'NEWS',
  };
}

function showFields() {
  return {
    title: 'Failure show',
    venue: 'The Boardwalk',
    location: 'Night Shore, NJ',
    date: '2030-08-02',
    time: '8:00 PM',
    ticketUrl: '',
    description: '',
  };
}

const THEME = {
  primary: 'hsl(347, 100%, 56%)',
  variant: 'vibrant',
  appearance: 'dark',
  radius: '0.5',
  headerFont: 'Orbitron',
  bodyFont: 'Inter',
  heroTitle: '',
  heroText: '',
  footerText: '',
};

/**
 * One admin action: the collection whose writes fail, the request, and how its answer shows
 * the failure: `form` (the form again, 500, its alert), `toast` (back to a page with an error
 * toast) or `json` (the API's 500).
 */
type Case = {
  name: string;
  collection: string;
  method: string;
  url: () => string;
  body?: () => Body;
  shows: 'form' | 'toast' | 'json';
};

const CASES: Case[] = [
  // The back office's pages.
  {
    name: 'feature a track',
    collection: 'tracks',
    method: 'POST',
    url: () => '/admin/tracks',
    body: () => ({ form: { intent: 'toggle-featured', id: String(ids.track), featured: 'true' } }),
    shows: 'toast',
  },
  {
    name: 'randomize the featured track',
    collection: 'tracks',
    method: 'POST',
    url: () => '/admin/tracks',
    body: () => ({ form: { intent: 'randomize' } }),
    shows: 'toast',
  },
  {
    name: 'track settings',
    collection: 'theme_settings',
    method: 'POST',
    url: () => '/admin/tracks/settings',
    body: () => ({ form: { weeklyRotation: 'on' } }),
    shows: 'toast',
  },
  {
    name: 'add a track',
    collection: 'tracks',
    method: 'POST',
    url: () => '/admin/tracks/new',
    body: () => ({ form: { title: 'New failing track', coverImage: cover(), audioFile: audio() } }),
    shows: 'form',
  },
  {
    name: 'edit a track',
    collection: 'tracks',
    method: 'POST',
    url: () => `/admin/tracks/${ids.track}/edit`,
    body: () => ({ form: { title: 'Edited failing track', type: 'Single' }, multipart: true }),
    shows: 'form',
  },
  {
    name: 'delete a track',
    collection: 'tracks',
    method: 'POST',
    url: () => `/admin/tracks/${ids.track}/delete`,
    shows: 'toast',
  },
  {
    name: 'add an image',
    collection: 'gallery_images',
    method: 'POST',
    url: () => '/admin/gallery/new',
    body: () => ({ form: { title: 'New failing image', image: cover() } }),
    shows: 'form',
  },
  {
    name: 'edit an image',
    collection: 'gallery_images',
    method: 'POST',
    url: () => `/admin/gallery/${ids.image}/edit`,
    body: () => ({ form: { title: 'Edited failing image', description: '' }, multipart: true }),
    shows: 'form',
  },
  {
    name: 'delete an image',
    collection: 'gallery_images',
    method: 'POST',
    url: () => `/admin/gallery/${ids.image}/delete`,
    shows: 'toast',
  },
  {
    name: 'publish a post',
    collection: 'blog_posts',
    method: 'POST',
    url: () => '/admin/blog/new',
    body: () => ({ form: { ...postFields('new-failing-post'), image: cover() } }),
    shows: 'form',
  },
  {
    name: 'edit a post',
    collection: 'blog_posts',
    method: 'POST',
    url: () => `/admin/blog/${ids.post}/edit`,
    body: () => ({ form: postFields('failure-post'), multipart: true }),
    shows: 'form',
  },
  {
    name: 'delete a post',
    collection: 'blog_posts',
    method: 'POST',
    url: () => `/admin/blog/${ids.post}/delete`,
    shows: 'toast',
  },
  {
    name: 'add a show',
    collection: 'shows',
    method: 'POST',
    url: () => '/admin/shows/new',
    body: () => ({ form: showFields() }),
    shows: 'form',
  },
  {
    name: 'edit a show',
    collection: 'shows',
    method: 'POST',
    url: () => `/admin/shows/${ids.show}/edit`,
    body: () => ({ form: showFields() }),
    shows: 'form',
  },
  {
    name: 'delete a show',
    collection: 'shows',
    method: 'POST',
    url: () => `/admin/shows/${ids.show}/delete`,
    shows: 'toast',
  },
  {
    name: 'delete a message',
    collection: 'contact_messages',
    method: 'POST',
    url: () => `/admin/messages/${ids.message}/delete`,
    shows: 'toast',
  },
  {
    name: 'remove a subscriber',
    collection: 'subscribers',
    method: 'POST',
    url: () => `/admin/newsletter/${ids.subscriber}/delete`,
    shows: 'toast',
  },
  {
    name: 'send a newsletter',
    collection: 'newsletters',
    method: 'POST',
    url: () => '/admin/newsletter?tab=compose',
    body: () => ({
      form: { subject: 'A failing issue', content: 'Content of an issue that fails.' },
    }),
    shows: 'form',
  },
  {
    name: 'save the site appearance',
    collection: 'theme_settings',
    method: 'POST',
    url: () => '/admin/settings',
    body: () => ({ form: THEME }),
    shows: 'form',
  },
  {
    name: 'save the newsletter settings',
    collection: 'newsletter_settings',
    method: 'POST',
    url: () => '/admin/settings',
    body: () => ({ form: { intent: 'newsletter-settings', doubleOptIn: 'on' } }),
    shows: 'toast',
  },
  // The JSON API's admin routes that write.
  {
    name: 'POST /api/admin/tracks',
    collection: 'tracks',
    method: 'POST',
    url: () => '/api/admin/tracks',
    body: () => ({ form: { title: 'Api failing track', coverImage: cover(), audioFile: audio() } }),
    shows: 'json',
  },
  {
    name: 'PUT /api/admin/tracks/{id}',
    collection: 'tracks',
    method: 'PUT',
    url: () => `/api/admin/tracks/${ids.track}`,
    body: () => ({ form: { title: 'Api edited track', album: 'x', coverImage: cover() } }),
    shows: 'json',
  },
  {
    name: 'PUT /api/admin/tracks/{id} (featured)',
    collection: 'tracks',
    method: 'PUT',
    url: () => `/api/admin/tracks/${ids.track}`,
    body: () => ({ json: { featured: true } }),
    shows: 'json',
  },
  {
    name: 'DELETE /api/admin/tracks/{id}',
    collection: 'tracks',
    method: 'DELETE',
    url: () => `/api/admin/tracks/${ids.track}`,
    shows: 'json',
  },
  {
    name: 'POST /api/admin/tracks/randomize-featured',
    collection: 'tracks',
    method: 'POST',
    url: () => '/api/admin/tracks/randomize-featured',
    shows: 'json',
  },
  {
    name: 'POST /api/admin/gallery',
    collection: 'gallery_images',
    method: 'POST',
    url: () => '/api/admin/gallery',
    body: () => ({ form: { title: 'Api failing image', image: cover() } }),
    shows: 'json',
  },
  {
    name: 'PUT /api/admin/gallery/{id}',
    collection: 'gallery_images',
    method: 'PUT',
    url: () => `/api/admin/gallery/${ids.image}`,
    body: () => ({ form: { title: 'Api edited image', image: cover() } }),
    shows: 'json',
  },
  {
    name: 'DELETE /api/admin/gallery/{id}',
    collection: 'gallery_images',
    method: 'DELETE',
    url: () => `/api/admin/gallery/${ids.image}`,
    shows: 'json',
  },
  {
    name: 'POST /api/admin/blog',
    collection: 'blog_posts',
    method: 'POST',
    url: () => '/api/admin/blog',
    body: () => ({ form: { ...postFields('api-failing-post'), image: cover() } }),
    shows: 'json',
  },
  {
    name: 'PUT /api/admin/blog/{id}',
    collection: 'blog_posts',
    method: 'PUT',
    url: () => `/api/admin/blog/${ids.post}`,
    body: () => ({ form: { ...postFields('failure-post'), image: cover() } }),
    shows: 'json',
  },
  {
    name: 'DELETE /api/admin/blog/{id}',
    collection: 'blog_posts',
    method: 'DELETE',
    url: () => `/api/admin/blog/${ids.post}`,
    shows: 'json',
  },
  {
    name: 'POST /api/admin/shows',
    collection: 'shows',
    method: 'POST',
    url: () => '/api/admin/shows',
    body: () => ({ json: showFields() }),
    shows: 'json',
  },
  {
    name: 'PUT /api/admin/shows/{id}',
    collection: 'shows',
    method: 'PUT',
    url: () => `/api/admin/shows/${ids.show}`,
    body: () => ({ json: showFields() }),
    shows: 'json',
  },
  {
    name: 'DELETE /api/admin/shows/{id}',
    collection: 'shows',
    method: 'DELETE',
    url: () => `/api/admin/shows/${ids.show}`,
    shows: 'json',
  },
  {
    name: 'DELETE /api/admin/messages/{id}',
    collection: 'contact_messages',
    method: 'DELETE',
    url: () => `/api/admin/messages/${ids.message}`,
    shows: 'json',
  },
  {
    name: 'DELETE /api/admin/subscribers/{id}',
    collection: 'subscribers',
    method: 'DELETE',
    url: () => `/api/admin/subscribers/${ids.subscriber}`,
    shows: 'json',
  },
  {
    name: 'POST /api/admin/newsletter',
    collection: 'newsletters',
    method: 'POST',
    url: () => '/api/admin/newsletter',
    body: () => ({ json: { subject: 'Api failing issue', content: 'Content of an issue.' } }),
    shows: 'json',
  },
  {
    name: 'POST /api/admin/theme',
    collection: 'theme_settings',
    method: 'POST',
    url: () => '/api/admin/theme',
    body: () => ({ json: { ...THEME, radius: 0.5 } }),
    shows: 'json',
  },
];

type LogLine = { level?: string; requestId?: string; msg?: string; err?: unknown };

/** The server's error lines of one request, apart from its access line. */
function loggedFailures(requestId: string): LogLine[] {
  return app
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((l) => l.requestId === requestId && l.level === 'error' && l.msg !== 'request');
}

/** The page an action redirected to, as the admin sees it (with the flash toast's cookie). */
async function pageAfter(response: Response): Promise<string> {
  const location = response.headers.get('Location');
  expect(location, 'a redirect').toBeTruthy();
  const flash = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const page = await fetch(new URL(location!, app.url), {
    headers: { Cookie: `${cookie}; ${flash}` },
  });
  expect(page.status).toBe(200);
  return page.text();
}

for (const c of CASES) {
  test(`${c.name}: a refused write is logged with the request id and shown in generic words`, async () => {
    await admin.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: 'alwaysOn',
      data: { failCommands: WRITES, namespace: `${DB}.${c.collection}`, errorCode: 96 },
    });
    const response = await send(c.method, c.url(), c.body?.() ?? {});
    const requestId = response.headers.get('X-Request-Id') ?? '';
    expect(requestId).toMatch(/^[\w-]{8,}$/);
    let shown: string;
    if (c.shows === 'json') {
      expect(response.status).toBe(500);
      shown = await response.text();
      expect(JSON.parse(shown)).toEqual({ error: API_GENERIC });
    } else if (c.shows === 'form') {
      expect(response.status).toBe(500);
      shown = await response.text();
      expect(shown).toContain(GENERIC);
    } else {
      expect(response.status).toBe(302);
      await response.arrayBuffer();
      // The database answers again before the page the action returns to is read.
      await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
      shown = await pageAfter(response);
      expect(shown).toContain(GENERIC);
    }
    expect(shown).not.toMatch(EXCEPTION_TEXT);
    // The exception itself is in the log, on a line with the answer's request id.
    await expect
      .poll(() => loggedFailures(requestId).map((line) => JSON.stringify(line.err ?? '')))
      .toEqual([expect.stringContaining('failpoint')]);
  });
}

test('the records the failing actions worked on are unchanged', async () => {
  const db = admin.db(DB);
  expect(await db.collection('tracks').findOne({ id: ids.track })).toMatchObject({
    title: 'Failure track',
    featured: false,
  });
  expect(await db.collection('gallery_images').countDocuments({ id: ids.image })).toBe(1);
  expect(await db.collection('blog_posts').countDocuments({ id: ids.post })).toBe(1);
  expect(await db.collection('shows').countDocuments({ id: ids.show })).toBe(1);
  expect(await db.collection('contact_messages').countDocuments({ id: ids.message })).toBe(1);
  expect(await db.collection('subscribers').countDocuments({ id: ids.subscriber })).toBe(1);
  expect(await db.collection('newsletters').countDocuments({})).toBe(0);
});
