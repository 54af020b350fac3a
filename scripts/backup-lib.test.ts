import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { type EmbeddedMongo, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as ContactMessageModule from '../app/models/contact-message.server';
import type * as SubscriberModule from '../app/models/subscriber.server';
import type * as DbModule from '../app/platform/db.server';
import type * as BackupLibModule from './backup-lib';

let store: EmbeddedMongo;
let tmp: string;
let uploads: string;
let db: typeof DbModule;
let lib: typeof BackupLibModule;
let messages: typeof ContactMessageModule;
let subscribers: typeof SubscriberModule;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ns-backup-test-'));
  uploads = path.join(tmp, 'uploads');
  process.env.UPLOADS_DIR = uploads;
  process.env.SEED = 'false';
  store = await startEmbeddedMongo();
  db = await import('../app/platform/db.server');
  messages = await import('../app/models/contact-message.server');
  subscribers = await import('../app/models/subscriber.server');
  lib = await import('./backup-lib');
  await db.connectDb({ uri: store.uri, dbName: 'backup-test' });
});

afterAll(async () => {
  await db.disconnectDb();
  await store.stop();
  await fs.rm(tmp, { recursive: true, force: true });
});

async function snapshotFiles(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const sub of ['audio', 'images']) {
    for (const name of await fs.readdir(path.join(uploads, sub)).catch(() => [])) {
      out[`${sub}/${name}`] = await fs.readFile(path.join(uploads, sub, name), 'utf8');
    }
  }
  return out;
}

describe('backup and restore', () => {
  it('brings back the database and the uploads exactly', async () => {
    await fs.mkdir(path.join(uploads, 'audio'), { recursive: true });
    await fs.mkdir(path.join(uploads, 'images'), { recursive: true });
    await fs.writeFile(path.join(uploads, 'audio', 'a.mp3'), 'first audio');
    await fs.writeFile(path.join(uploads, 'images', 'cover.jpg'), 'first image');
    await fs.writeFile(path.join(uploads, 'images', '.half.jpg.part'), 'unfinished');
    const kept = await messages.createContactMessage({
      name: 'Zoë <b>Ünïcode</b>',
      email: 'zoe@example.com',
      subject: 'General Inquiry',
      message: 'Kept across the restore — ünïcode ✓',
    });
    await subscribers.createSubscriber({ name: 'Sam', email: 'sam@example.com' });
    const before = {
      messages: await messages.listContactMessages(),
      subscribers: await subscribers.countSubscribers(),
      files: await snapshotFiles(),
    };

    const target = path.join(tmp, 'backups', `night-shore-${lib.timestamp()}`);
    const manifest = await lib.createBackup({ target, uploadsDir: uploads });
    expect(manifest.collections.contact_messages?.count).toBe(1);
    expect(manifest.uploads.files.map((f) => f.path).sort()).toEqual([
      'audio/a.mp3',
      'images/cover.jpg',
    ]);
    const firstLine = (
      await fs.readFile(path.join(target, Object.values(manifest.collections)[0]!.file), 'utf8')
    ).split('\n')[0];
    if (firstLine) expect(firstLine).toMatch(/^\{"_id":/); // one Extended JSON document per line
    await expect(lib.verifyBackup(target)).resolves.toMatchObject({ format: 'night-shore-backup' });

    // Change everything.
    await messages.deleteContactMessage(kept.id);
    await messages.createContactMessage({
      name: 'Later',
      email: 'later@example.com',
      subject: 'General Inquiry',
      message: 'Written after the backup',
    });
    await subscribers.createSubscriber({ email: 'new@example.com' });
    await fs.writeFile(path.join(uploads, 'audio', 'a.mp3'), 'changed');
    await fs.rm(path.join(uploads, 'images', 'cover.jpg'));
    await fs.writeFile(path.join(uploads, 'images', 'new.jpg'), 'new');

    await lib.restoreBackup({ source: target, uploadsDir: uploads });

    expect(await messages.listContactMessages()).toEqual(before.messages);
    expect(await subscribers.countSubscribers()).toBe(before.subscribers);
    const files = await snapshotFiles();
    delete before.files['images/.half.jpg.part'];
    delete files['images/.half.jpg.part'];
    expect(files).toEqual(before.files);
    // Unique indexes came back too: the same e-mail cannot subscribe twice.
    await expect(subscribers.createSubscriber({ email: 'sam@example.com' })).rejects.toThrow();
  });

  it('covers the media in GridFS: streamed out, put back, nothing else left in the bucket', async () => {
    const { gridfsMediaStore, sha256OfStream } = await import('../app/files/media-store.server');
    const gridfs = gridfsMediaStore();
    const staged = path.join(tmp, 'staged.bin');
    const big = Buffer.alloc(700 * 1024, 7); // several chunks
    await fs.writeFile(staged, big);
    await gridfs.put('audio/in-gridfs.mp3', staged);
    await fs.writeFile(staged, 'small image');
    await gridfs.put('images/in-gridfs.jpg', staged);

    const target = path.join(tmp, 'backups', `gridfs-${lib.timestamp()}`);
    const manifest = await lib.createBackup({ target, uploadsDir: uploads });
    expect(manifest.media?.files.map((f) => f.path)).toEqual([
      'audio/in-gridfs.mp3',
      'images/in-gridfs.jpg',
    ]);
    expect(manifest.collections['media.chunks']).toBeUndefined();
    expect(
      (await fs.readFile(path.join(target, 'media', 'audio', 'in-gridfs.mp3'))).equals(big),
    ).toBe(true);

    await gridfs.delete('audio/in-gridfs.mp3');
    await fs.writeFile(staged, 'after the backup');
    await gridfs.put('images/later.jpg', staged);
    await lib.restoreBackup({ source: target, uploadsDir: uploads });

    expect((await gridfs.all()).map((f) => f.key).sort()).toEqual([
      'audio/in-gridfs.mp3',
      'images/in-gridfs.jpg',
    ]);
    const hash = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
    expect(await sha256OfStream(await gridfs.open('audio/in-gridfs.mp3'))).toBe(hash(big));

    // A damaged media file in the archive is refused.
    await fs.writeFile(path.join(target, 'media', 'images', 'in-gridfs.jpg'), 'tampered');
    await expect(lib.verifyBackup(target)).rejects.toThrow(
      /media\/images\/in-gridfs.jpg is damaged/,
    );
  });

  it('refuses a damaged archive', async () => {
    const target = path.join(tmp, 'backups', 'damaged');
    const manifest = await lib.createBackup({ target, uploadsDir: uploads });
    const file = Object.values(manifest.collections).find((c) => c.count > 0)!.file;
    await fs.appendFile(path.join(target, file), '{"_id":1}\n');
    await expect(lib.verifyBackup(target)).rejects.toThrow(/damaged/);
    await expect(lib.restoreBackup({ source: target, uploadsDir: uploads })).rejects.toThrow(
      /damaged/,
    );
    await expect(lib.createBackup({ target, uploadsDir: uploads })).rejects.toThrow(
      /already exists/,
    );
  });
});
