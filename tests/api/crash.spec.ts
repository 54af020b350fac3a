import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { apiLogin, runScriptFor, startServer, type TestServer } from '../security/server';

/**
 * Crash test at the application level: writes go through the site (contact messages,
 * subscriptions, gallery uploads) while the server is SIGKILLed. After a restart every
 * write that was answered with success must be there, no upload may be left half-written
 * (`.part`) and no upload file may be orphaned (referenced by nothing). Then a SIGTERM
 * must end the server cleanly (in-flight requests finished, store flushed, exit 0).
 *
 * Runs its own server on a temporary DATA_DIR/UPLOADS_DIR (it kills it), on the build.
 */

const ADMIN = { username: 'crash-admin', password: 'crash-admin-password' };
const cover = fs.readFileSync(path.join('tests', 'fixtures', 'cover.jpg'));
const sha = (b: Buffer | Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const name = path.join(rel, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(root, name));
    else out.push(name);
  }
  return out;
}

test('SIGKILL mid-write loses no acknowledged write and leaves no half-written or orphaned upload', async () => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-crash-'));
  let server: TestServer | null = await startServer(dir);
  try {
    runScriptFor(dir, 'scripts/create-admin.ts', {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    });
    const cookie = await apiLogin(server.url, ADMIN.username, ADMIN.password);
    const url = server.url;
    const json = { 'Content-Type': 'application/json', Origin: url };

    const acked = {
      messages: [] as { id: number; message: string }[],
      subscribers: [] as { email: string }[],
      images: [] as { id: number; title: string; imageUrl: string }[],
    };
    let failed = 0;
    let stop = false;
    let seq = 0;

    const contactLoop = async () => {
      while (!stop) {
        const n = ++seq;
        const message = `Crash test message number ${n} ${crypto.randomUUID()}`;
        try {
          const res = await fetch(`${url}/api/contact`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({
              name: `Writer ${n}`,
              email: `w${n}@example.com`,
              subject: 'Booking Inquiry',
              message,
            }),
          });
          if (res.status === 201)
            acked.messages.push({ id: ((await res.json()) as { id: number }).id, message });
          else failed++;
        } catch {
          failed++;
        }
      }
    };
    const subscribeLoop = async () => {
      while (!stop) {
        const email = `crash-${++seq}-${crypto.randomUUID().slice(0, 8)}@example.com`;
        try {
          const res = await fetch(`${url}/api/subscribe`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ email }),
          });
          if (res.status === 201) {
            await res.arrayBuffer();
            acked.subscribers.push({ email });
          } else failed++;
        } catch {
          failed++;
        }
      }
    };
    const uploadLoop = async () => {
      while (!stop) {
        const title = `Crash image ${++seq}`;
        const form = new FormData();
        form.set('title', title);
        form.set('image', new Blob([new Uint8Array(cover)], { type: 'image/jpeg' }), 'cover.jpg');
        try {
          const res = await fetch(`${url}/api/admin/gallery`, {
            method: 'POST',
            headers: { Cookie: cookie, Origin: url },
            body: form,
          });
          if (res.status === 201) {
            const body = (await res.json()) as { id: number; imageUrl: string };
            acked.images.push({ id: body.id, title, imageUrl: body.imageUrl });
          } else failed++;
        } catch {
          failed++;
        }
      }
    };

    const loops = [
      ...Array.from({ length: 6 }, contactLoop),
      ...Array.from({ length: 3 }, subscribeLoop),
      ...Array.from({ length: 3 }, uploadLoop),
    ];
    // Let writes flow, then pull the plug without warning.
    await new Promise((r) => setTimeout(r, 3_000));
    server.proc.kill('SIGKILL');
    await server.exited;
    stop = true;
    await Promise.all(loops);
    server = null;
    console.log(
      `[crash] acknowledged before SIGKILL: ${acked.messages.length} messages, ${acked.subscribers.length} subscribers, ${acked.images.length} uploads; ${failed} requests cut off`,
    );
    expect(acked.messages.length).toBeGreaterThan(10);
    expect(acked.images.length).toBeGreaterThan(0);

    // Restart on the same folders.
    server = await startServer(dir);
    const url2 = server.url;
    const cookie2 = await apiLogin(url2, ADMIN.username, ADMIN.password);
    const get = async <T>(p: string): Promise<T> => {
      const res = await fetch(`${url2}${p}`, { headers: { Cookie: cookie2 } });
      expect(res.status, p).toBe(200);
      return (await res.json()) as T;
    };
    const messages = await get<{ id: number; message: string }[]>('/api/admin/messages');
    const byId = new Map(messages.map((m) => [m.id, m.message]));
    const lostMessages = acked.messages.filter((m) => byId.get(m.id) !== m.message);
    expect(lostMessages, 'acknowledged messages lost').toEqual([]);

    const subscribers = await get<{ id: number; email: string }[]>('/api/admin/subscribers');
    const emails = new Set(subscribers.map((s) => s.email));
    expect(
      acked.subscribers.filter((s) => !emails.has(s.email)),
      'acknowledged subscribers lost',
    ).toEqual([]);

    const images = await get<{ id: number; title: string; imageUrl: string }[]>('/api/gallery');
    const imageById = new Map(images.map((i) => [i.id, i]));
    for (const img of acked.images) {
      expect(imageById.get(img.id), `image ${img.id}`).toMatchObject({
        title: img.title,
        imageUrl: img.imageUrl,
      });
      const file = await fetch(`${url2}${img.imageUrl}`);
      expect(file.status, img.imageUrl).toBe(200);
      expect(sha(new Uint8Array(await file.arrayBuffer())), `${img.imageUrl} complete`).toBe(
        sha(cover),
      );
    }

    // Uploads: nothing half-written, nothing that no content refers to.
    const uploads = path.join(dir, 'uploads');
    const served = listFiles(uploads).filter((f) => !f.startsWith('.orphans'));
    expect(
      served.filter((f) => f.endsWith('.part')),
      'half-written files',
    ).toEqual([]);
    const referenced = new Set(
      images.map((i) => path.basename(i.imageUrl, path.extname(i.imageUrl))),
    );
    const orphans = served.filter((f) => {
      if (!f.startsWith(`images${path.sep}`))
        return f !== path.join('audio', 'fallback.mp3') && !f.startsWith('audio');
      const base = path.basename(f).replace(/(-\d+w)?\.\w+$/, '');
      return !referenced.has(base);
    });
    expect(orphans, 'orphaned upload files').toEqual([]);
    const quarantined = fs.existsSync(path.join(uploads, '.orphans'))
      ? listFiles(path.join(uploads, '.orphans'))
      : [];
    console.log(
      `[crash] after restart: all acknowledged writes present; ${quarantined.length} unreferenced file(s) moved to .orphans/`,
    );

    // Graceful stop: a slow request in flight still completes, then exit code 0.
    const inFlight = fetch(`${url2}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: url2 },
      body: JSON.stringify({
        name: 'Last one',
        email: 'last@example.com',
        subject: 'Booking Inquiry',
        message: 'Sent right before SIGTERM.',
      }),
    });
    await new Promise((r) => setTimeout(r, 5));
    server.proc.kill('SIGTERM');
    const last = await inFlight;
    expect(last.status).toBe(201);
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/Error/);
    server = null;
  } finally {
    if (server) {
      server.proc.kill('SIGKILL');
      await server.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
