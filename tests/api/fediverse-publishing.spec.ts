import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { apiLogin, runScriptFor } from '../security/server';
import {
  type Certificate,
  type FediverseSite,
  makeCertificate,
  type Peer,
  type ReceivedActivity,
  startFediverseSite,
  startPeer,
  waitFor,
} from '../support/fediverse-peer';

/**
 * What the site publishes, end to end with a real peer (issue 40, decision 054): the site behind
 * a loopback TLS proxy, an independent Fedify server following it; publishing through the admin
 * API delivers signed activities (the peer's inbox verifies every signature and records only
 * what it accepted): a public mix one `Create` of a Note that links /music/{id} with an
 * audio/mpeg attachment that answers Range; a members-only track nothing until it turns public;
 * a post an Article, a show an Event; an edit an Update, a deletion a Delete after which the id
 * answers 410. The same URLs answer HTML to browsers, with `Vary: Accept`, and the page cache
 * never hands one to the other.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const ADMIN = { username: 'fedipub-admin', password: 'fedipub-admin-password-1' };
const AS2 = { Accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' };
/** Deliveries go through the durable queue: generous under a loaded CI machine (not a timing check). */
const DELIVERED_WITHIN = 60_000;
const HTML = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let dir: string;
let certificate: Certificate;
let site: FediverseSite;
let peer: Peer;
let cookie: string;
const ids: { mix?: number; members?: number; post?: string; show?: number } = {};

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-fedipub-'));
  certificate = makeCertificate(dir);
  site = await startFediverseSite(dir, certificate, { DB_ROUND_TRIP_HEADER: 'true' });
  peer = await startPeer(certificate);
  runScriptFor(dir, 'scripts/create-admin.ts', {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  cookie = await apiLogin(site.server.url, ADMIN.username, ADMIN.password);
  await peer.follow('bob', site.handle);
  await waitFor(
    async () => (await peer.received()).filter((a) => a.type === 'Accept'),
    (list) => list.length > 0,
    DELIVERED_WITHIN,
  );
});

test.afterAll(async () => {
  await peer?.stop();
  if (site) {
    site.server.proc.kill('SIGTERM');
    await site.server.exited;
    await site.proxy.close();
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const url = (p: string) => `${site.server.url}${p}`;
const objectUrl = (p: string) => `${site.origin}${p}`;

/** What the peer accepted about an object (its id without a fragment), in order. */
async function about(objectPath: string): Promise<ReceivedActivity[]> {
  return (await peer.received()).filter(
    (a) => a.type !== 'Accept' && a.object?.split('#')[0] === objectUrl(objectPath),
  );
}
const verbsAbout = async (objectPath: string) => (await about(objectPath)).map((a) => a.type);

function trackForm(fields: Record<string, string>, withFiles: boolean): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (withFiles) {
    const cover = fs.readFileSync(path.join('tests', 'fixtures', 'cover.jpg'));
    const audio = fs.readFileSync(path.join('tests', 'fixtures', 'short.mp3'));
    form.set('coverImage', new Blob([new Uint8Array(cover)], { type: 'image/jpeg' }), 'c.jpg');
    form.set('audioFile', new Blob([new Uint8Array(audio)], { type: 'audio/mpeg' }), 'a.mp3');
  }
  return form;
}

async function admin(method: string, p: string, body?: FormData | object) {
  const json = body !== undefined && !(body instanceof FormData);
  const res = await fetch(url(p), {
    method,
    headers: {
      Cookie: cookie,
      Origin: site.server.url,
      ...(json ? { 'Content-Type': 'application/json' } : {}),
    },
    body: json ? JSON.stringify(body) : (body as FormData | undefined),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

test('publishing a public mix through the admin API delivers one signed Create of a Note that links /music/{id} with its audio/mpeg attachment', async () => {
  const created = await admin(
    'POST',
    '/api/admin/tracks',
    trackForm(
      {
        title: 'Fedi Boardwalk Mix',
        type: 'Mix',
        duration: '10:00',
        description: 'Dawn <set> on the boardwalk',
        tracklist: '0:00 Tide - Low\n5:00 Gull - Pier [Shore]',
      },
      true,
    ),
  );
  expect(created.status).toBe(201);
  const id = created.json.id as number;
  ids.mix = id;
  const [create] = await waitFor(
    () => about(`/music/${id}`),
    (list) => list.length > 0,
    DELIVERED_WITHIN,
  );
  expect(create!.type).toBe('Create');
  expect(create!.actor).toBe(site.actorId);
  const note = create!.json.object as Record<string, unknown>;
  expect(note.type).toBe('Note');
  expect(note.id).toBe(objectUrl(`/music/${id}`));
  const pageUrl = ([] as unknown[]).concat(note.url)[0] as { href: string };
  expect(pageUrl.href).toBe(objectUrl(`/music/${id}`));
  const attachment = ([] as unknown[]).concat(note.attachment)[0] as Record<string, string>;
  expect(attachment.mediaType).toBe('audio/mpeg');
  expect(String(note.content)).toContain('Dawn &lt;set&gt; on the boardwalk');
  expect(String(note.content)).toContain(
    'Tracklist:<br>0:00 Tide – Low<br>5:00 Gull – Pier [Shore]',
  );
  expect(String(note.content)).toContain('#<span>mix</span>');
  // The audio URL answers Range requests.
  const audio = await fetch(attachment.url!.replace(site.origin, site.server.url), {
    headers: { Range: 'bytes=0-9' },
  });
  expect(audio.status).toBe(206);
  expect((await audio.arrayBuffer()).byteLength).toBe(10);
});

test('a members-only track is not delivered until an admin makes it public, then once', async () => {
  const created = await admin(
    'POST',
    '/api/admin/tracks',
    trackForm({ title: 'Fedi Members Cut', type: 'Single', visibility: 'members' }, true),
  );
  expect(created.status).toBe(201);
  const id = created.json.id as number;
  ids.members = id;
  // Nothing about it, and nothing to ActivityPub clients: 404, not the object.
  expect((await fetch(url(`/music/${id}`), { headers: AS2 })).status).toBe(404);
  const madePublic = await admin(
    'PUT',
    `/api/admin/tracks/${id}`,
    trackForm({ title: 'Fedi Members Cut', visibility: 'public' }, false),
  );
  expect(madePublic.status).toBe(200);
  await waitFor(
    () => verbsAbout(`/music/${id}`),
    (verbs) => verbs.length > 0,
    DELIVERED_WITHIN,
  );
  expect(await verbsAbout(`/music/${id}`)).toEqual(['Create']);
  // The mix published before it got exactly one Create meanwhile.
  expect(await verbsAbout(`/music/${ids.mix}`)).toEqual(['Create']);
});

test('a post arrives as an Article and a show as an Event', async () => {
  const form = new FormData();
  const slug = `fedi-post-${Date.now()}`;
  ids.post = slug;
  for (const [k, v] of Object.entries({
    title: 'Fedi news',
    slug,
    excerpt: 'Short',
    content: 'Long text',
    category: 'NEWS',
  }))
    form.set(k, v);
  const image = fs.readFileSync(path.join('tests', 'fixtures', 'cover.jpg'));
  form.set('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'i.jpg');
  expect((await admin('POST', '/api/admin/blog', form)).status).toBe(201);
  const show = await admin('POST', '/api/admin/shows', {
    title: 'Fedi night',
    venue: 'The Pier',
    location: 'Asbury Park, NJ',
    date: '2031-08-01',
    time: '9:00 PM',
    ticketUrl: 'https://tickets.example/fedi',
  });
  expect(show.status).toBe(201);
  ids.show = show.json.id as number;
  const [article] = await waitFor(
    () => about(`/blog/${slug}`),
    (l) => l.length > 0,
    DELIVERED_WITHIN,
  );
  expect(article!.type).toBe('Create');
  expect((article!.json.object as { type: string }).type).toBe('Article');
  const [event] = await waitFor(
    () => about(`/shows/${ids.show}`),
    (l) => l.length > 0,
    DELIVERED_WITHIN,
  );
  const object = event!.json.object as Record<string, unknown>;
  expect(object.type).toBe('Event');
  expect(object.startTime).toBe('2031-08-02T01:00:00Z');
  expect(object.location).toMatchObject({ type: 'Place', name: 'The Pier, Asbury Park, NJ' });
  // The show's id answers the Event to ActivityPub clients and sends browsers to /shows.
  const as2 = await fetch(url(`/shows/${ids.show}`), { headers: AS2 });
  expect(as2.status).toBe(200);
  expect(((await as2.json()) as { type: string }).type).toBe('Event');
  const browser = await fetch(url(`/shows/${ids.show}`), { headers: HTML, redirect: 'manual' });
  expect(browser.status).toBe(302);
  expect(browser.headers.get('location')).toBe(`/shows#show-${ids.show}`);
});

test('/music/{id} answers ActivityStreams to ActivityPub clients and HTML to browsers, Vary: Accept on both; page-cache hits never mix them', async () => {
  const p = `/music/${ids.mix}`;
  const rendered = (r: Response) => r.headers.has('server-timing');
  // HTML first (rendered, then a page-cache hit), then an ActivityPub request, then HTML again.
  const first = await fetch(url(p), { headers: HTML });
  expect(first.headers.get('content-type')).toContain('text/html');
  expect(first.headers.get('vary')).toMatch(/\bAccept\b/);
  await first.text();
  const hit = await fetch(url(p), { headers: HTML });
  expect(rendered(hit)).toBe(false);
  await hit.text();
  for (const accept of [AS2, { Accept: 'application/activity+json' }]) {
    const res = await fetch(url(p), { headers: accept });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/activity+json');
    expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(((await res.json()) as { id: string }).id).toBe(objectUrl(p));
  }
  const after = await fetch(url(p), { headers: HTML });
  expect(after.headers.get('content-type')).toContain('text/html');
  expect(await after.text()).toContain('Fedi Boardwalk Mix');
  // And the other way round: an ActivityPub request first on a page not cached yet.
  const other = `/music/${ids.members}`;
  expect((await fetch(url(other), { headers: AS2 })).headers.get('content-type')).toContain(
    'application/activity+json',
  );
  const html1 = await fetch(url(other), { headers: HTML });
  expect(html1.headers.get('content-type')).toContain('text/html');
  await html1.text();
  const html2 = await fetch(url(other), { headers: HTML });
  expect(rendered(html2)).toBe(false);
  expect(html2.headers.get('content-type')).toContain('text/html');
  await html2.text();
  const as2Again = await fetch(url(other), { headers: AS2 });
  expect(as2Again.headers.get('content-type')).toContain('application/activity+json');
});

test('an edit arrives as an Update, a deletion as a Delete, and the id then answers 410 with a Tombstone', async () => {
  const p = `/music/${ids.mix}`;
  const edited = await admin(
    'PUT',
    `/api/admin/tracks/${ids.mix}`,
    trackForm({ title: 'Fedi Boardwalk Mix (extended)' }, false),
  );
  expect(edited.status).toBe(200);
  await waitFor(
    () => verbsAbout(p),
    (v) => v.length >= 2,
    DELIVERED_WITHIN,
  );
  const update = (await about(p))[1]!;
  expect(update.type).toBe('Update');
  expect((update.json.object as { id: string }).id).toBe(objectUrl(p));
  expect((await admin('DELETE', `/api/admin/tracks/${ids.mix}`)).status).toBe(204);
  await waitFor(
    () => verbsAbout(p),
    (v) => v.length >= 3,
    DELIVERED_WITHIN,
  );
  expect(await verbsAbout(p)).toEqual(['Create', 'Update', 'Delete']);
  const gone = await fetch(url(p), { headers: AS2 });
  expect(gone.status).toBe(410);
  expect(((await gone.json()) as { type: string }).type).toBe('Tombstone');
  const browser = await fetch(url(p), { headers: HTML });
  expect(browser.status).toBe(404);
  expect(browser.headers.get('content-type')).toContain('text/html');
});

test('the outbox lists the published items newest first; junk ids and other paths answer 4xx, never 5xx', async () => {
  const outbox = (await (await fetch(url('/fediverse/site/outbox'), { headers: AS2 })).json()) as {
    totalItems: number;
    first: string;
  };
  expect(outbox.totalItems).toBeGreaterThanOrEqual(3);
  const page = (await (
    await fetch(outbox.first.replace(site.origin, site.server.url), { headers: AS2 })
  ).json()) as { orderedItems: { type: string; object: { type: string } }[] };
  expect(page.orderedItems.map((a) => a.type)).toContain('Create');
  expect(page.orderedItems[0]!.object.type).toBe('Event');
  for (const junk of [
    '/music/abc',
    '/music/99999999',
    '/music/1%00',
    '/blog/%ff',
    '/blog/a%2Fb',
    `/blog/${'x'.repeat(300)}`,
    '/shows/-1',
    '/shows/0',
    '/fediverse/site/outbox?cursor=junk',
    '/fediverse/other/outbox',
  ]) {
    const res = await fetch(url(junk), { headers: AS2 });
    expect(res.status, junk).toBeGreaterThanOrEqual(400);
    expect(res.status, junk).toBeLessThan(500);
  }
});

test('after Undo(Follow) nothing more arrives: the next show reaches a follower on another server, not the one who left', async () => {
  const other = await startPeer(certificate);
  try {
    await other.follow('zoe', site.handle);
    await waitFor(
      async () => (await other.received()).filter((a) => a.type === 'Accept'),
      (list) => list.length > 0,
      DELIVERED_WITHIN,
    );
    await peer.unfollow('bob');
    const followers = async () =>
      (
        (await (await fetch(url('/fediverse/site/followers'), { headers: AS2 })).json()) as {
          totalItems: number;
        }
      ).totalItems;
    // The Undo is handled through the inbox queue: generous on a loaded machine.
    await waitFor(followers, (n) => n === 1, DELIVERED_WITHIN);
    const show = await admin('POST', '/api/admin/shows', {
      title: 'Fedi night after the unfollow',
      venue: 'The Pier',
      location: 'Asbury Park, NJ',
      date: '2031-10-01',
      time: '9:00 PM',
    });
    expect(show.status).toBe(201);
    const showUrl = objectUrl(`/shows/${show.json.id as number}`);
    await waitFor(
      async () => (await other.received()).filter((a) => a.object === showUrl),
      (list) => list.length > 0,
      DELIVERED_WITHIN,
    );
    // A delivery to the first server would have been queued with the other one's.
    await new Promise((r) => setTimeout(r, 2000));
    expect((await peer.received()).filter((a) => a.object === showUrl)).toHaveLength(0);
  } finally {
    await other.stop();
  }
});
