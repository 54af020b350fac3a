import fs from 'node:fs';
import path from 'node:path';

import type { Page, Request } from '@playwright/test';

import { coverFile, dismissToast, expectToast, fixture, unique } from './admin-helpers';
import { expect, test } from './fixtures';

/**
 * Long audio through the track form (decision 036). With JavaScript: a ~150 MB WAV (15 minutes
 * of 16-bit stereo 44.1 kHz, a tone and silence) uploads resumably, survives a connection cut
 * at half (the browser goes offline during the PATCH that starts past the middle), and the
 * saved track plays; a 60 MB one resumes after a reloaded tab. Without JavaScript: a 60 MB WAV (over the old
 * 50 MB cap) goes with the plain form.
 *
 * Each WAV is generated once per run into the test's output folder, from whole-second buffers.
 */

const RATE = 44_100;
const BYTES_PER_SECOND = RATE * 4; // 16-bit stereo

/** A WAV of `seconds`: a 440 Hz tone on even seconds, silence on odd ones. */
function writeWav(file: string, seconds: number): number {
  if (fs.existsSync(file)) return fs.statSync(file).size;
  const dataSize = seconds * BYTES_PER_SECOND;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataSize, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(BYTES_PER_SECOND, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataSize, 40);
  const tone = Buffer.alloc(BYTES_PER_SECOND);
  for (let i = 0; i < RATE; i++) {
    const v = Math.round(Math.sin((2 * Math.PI * 440 * i) / RATE) * 12_000);
    tone.writeInt16LE(v, i * 4);
    tone.writeInt16LE(v, i * 4 + 2);
  }
  const silence = Buffer.alloc(BYTES_PER_SECOND);
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'w');
  fs.writeSync(fd, header);
  for (let s = 0; s < seconds; s++) fs.writeSync(fd, s % 2 === 0 ? tone : silence);
  fs.closeSync(fd);
  fs.renameSync(temp, file);
  return 44 + dataSize;
}

/** The generated files, shared by the tests of this file (one per size, per run). */
const wavPath = (name: string) => path.join(process.env.E2E_DIR ?? '/tmp', name);

/**
 * The 6-minute WAV of the reload and edit tests: over the old 50 MB cap, and quicker than the
 * 150 MB file (the cut-connection test covers the size).
 */
function sixMinuteWav() {
  const seconds = 6 * 60;
  const file = wavPath('resumable-6min.wav');
  return { seconds, file, size: writeWav(file, seconds), name: path.basename(file) };
}

/** Record the tus requests of a page: HEADs, and PATCHes with their Upload-Offset. */
function tusLog(page: Page) {
  const log: { method: string; offset: number }[] = [];
  const onRequest = (request: Request) => {
    if (!request.url().includes('/api/admin/uploads')) return;
    const offset = Number(request.headers()['upload-offset'] ?? -1);
    log.push({ method: request.method(), offset });
  };
  page.on('request', onRequest);
  return log;
}

async function openNewTrack(page: Page, title: string) {
  await page.goto('/admin/tracks/new');
  await dismissToast(page);
  const dialog = page.getByRole('dialog', { name: 'Add New Track' });
  await dialog.getByLabel('Title', { exact: true }).fill(title);
  await dialog.getByLabel('Cover image').setInputFiles(coverFile());
  return dialog;
}

type ListedTrack = {
  id: number;
  title: string;
  audioFile: string | null;
  audioStatus: string;
  duration: string;
};

/**
 * The saved track: listed with the WAV's length; its stream is being made from the WAV, so the
 * public API names no audio until it is ready (decision 035), and the upload itself answers a
 * Range request at the admin's download of the original.
 */
async function expectSaved(page: Page, title: string, seconds: number) {
  const list = (await (await page.request.get('/api/tracks')).json()) as ListedTrack[];
  const track = list.find((t) => t.title === title);
  expect(track?.duration).toBe(
    `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`,
  );
  if (track?.audioStatus !== 'ready') expect(track?.audioFile).toBeNull();
  const original = await page.request.get(`/admin/tracks/${track!.id}/original`, {
    headers: { Range: 'bytes=0-11' },
  });
  expect(original.status()).toBe(206);
  expect((await original.body()).subarray(0, 4).toString('ascii')).toBe('RIFF');
  return track!;
}

test.describe('long audio uploads', () => {
  // Each test moves 60–150 MB through the browser and the server; CI's two cores are shared.
  // The waits for the bytes (`timeout: 0`) have no budget of their own: how long a transfer
  // takes is the machine's business, the test's 240 s bound it.
  test.describe.configure({ timeout: 240_000 });

  test('with JavaScript: a 150 MB WAV survives a cut connection and plays', async ({
    adminPage: page,
    context,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, 'the resumable upload needs JavaScript');
    const seconds = 15 * 60;
    const file = wavPath('resumable-15min.wav');
    const size = writeWav(file, seconds);
    expect(size).toBeGreaterThan(150 * 1000 * 1000);
    const name = path.basename(file);

    // 1. A cut at half: offline during the PATCH that starts past the middle.
    const title = unique('E2E Long Set');
    const dialog = await openNewTrack(page, title);
    const log = tusLog(page);
    let cut = false;
    const cutAtHalf = (request: Request) => {
      const offset = Number(request.headers()['upload-offset'] ?? -1);
      if (!cut && request.method() === 'PATCH' && offset >= size / 2) {
        cut = true;
        void context.setOffline(true);
      }
    };
    page.on('request', cutAtHalf);
    await dialog.getByLabel('Audio file').setInputFiles(file);
    const progress = dialog.getByRole('progressbar');
    await expect(dialog.getByText(`Upload paused ${name}`)).toBeVisible({ timeout: 0 });
    await expect(
      dialog.getByText('You are offline. The upload goes on when the connection is back.', {
        exact: true,
      }),
    ).toBeVisible();
    const pausedAt = Number(await progress.getAttribute('value'));
    expect(pausedAt).toBeGreaterThanOrEqual(45);
    expect(pausedAt).toBeLessThan(100);

    // Saving now waits for the upload; the submit goes out by itself once it is done.
    await dialog.getByRole('button', { name: 'Create Track' }).click();
    await expect(
      dialog.getByText('The track will be saved as soon as the upload has finished.'),
    ).toBeVisible();
    page.off('request', cutAtHalf);
    await context.setOffline(false);

    await expect(page).toHaveURL(/\/admin\/tracks$/, { timeout: 0 });
    await expectToast(page, 'Track created');
    // It resumed: a HEAD asked the offset, and the next PATCH started past the middle.
    const headAt = log.findIndex((r) => r.method === 'HEAD');
    expect(headAt).toBeGreaterThan(0);
    const resumedAt = log.slice(headAt).find((r) => r.method === 'PATCH');
    expect(resumedAt?.offset).toBeGreaterThanOrEqual(size / 2);
    await expectSaved(page, title, seconds);
  });

  test('with JavaScript: a reloaded tab offers to resume the same file, and the saved track plays', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, 'the resumable upload needs JavaScript');
    const { seconds, file, size, name } = sixMinuteWav();

    const second = unique('E2E Reloaded Set');
    const again = await openNewTrack(page, second);
    // Past half, the PATCHes fail: the upload cannot finish (and forget its resume entry)
    // before the tab is reloaded, however fast the machine.
    let halfSent = false;
    const uploads = '**/api/admin/uploads**';
    await page.route(uploads, async (route) => {
      const request = route.request();
      const offset = Number(request.headers()['upload-offset'] ?? -1);
      if (request.method() === 'PATCH' && offset >= size / 2) {
        halfSent = true;
        await route.abort();
      } else {
        await route.continue();
      }
    });
    await again.getByLabel('Audio file').setInputFiles(file);
    await expect.poll(() => halfSent, { timeout: 0 }).toBe(true);
    await page.reload();
    await page.unroute(uploads);
    const log2 = tusLog(page);
    const resumed = await openNewTrack(page, second);
    await resumed.getByLabel('Audio file').setInputFiles(file);
    await resumed.getByRole('button', { name: `Resume upload of ${name}` }).click();
    await expect(resumed.getByText(`Uploaded ${name} (100%)`)).toBeVisible({ timeout: 0 });
    const firstPatch = log2.find((r) => r.method === 'PATCH');
    expect(firstPatch?.offset).toBeGreaterThan(0);
    // The file input no longer sends the bytes: the form carries the upload's id.
    await expect(resumed.locator('input[type="file"][name="audioFile"]')).toHaveCount(0);
    await expect(resumed.locator('input[name="audioUploadId"]')).toHaveValue(/^[0-9a-f]{32}$/);
    await resumed.getByRole('button', { name: 'Create Track' }).click();
    await expect(page).toHaveURL(/\/admin\/tracks$/);
    await expectToast(page, 'Track created');
    await expectSaved(page, second, seconds);
  });

  test('with JavaScript: editing a track, new long audio goes resumably and replaces the old', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, 'the resumable upload needs JavaScript');
    const { seconds, file, name } = sixMinuteWav();

    const title = unique('E2E Replaced Audio');
    const dialog = await openNewTrack(page, title);
    await dialog.getByLabel('Audio file').setInputFiles(fixture('short.mp3'));
    await expect(dialog.getByText('Uploaded short.mp3 (100%)')).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Track' }).click();
    await expectToast(page, 'Track created');
    const before = (await (await page.request.get('/api/tracks')).json()) as ListedTrack[];
    const old = before.find((t) => t.title === title);
    expect(old?.duration).toBe('0:03');

    await page.getByRole('link', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Track' });
    // The stored duration is in the field; left as it is, the new file's length is read.
    await expect(edit.getByLabel('Duration')).toHaveValue('0:03');
    await edit.getByLabel('Audio file').setInputFiles(file);
    await expect(edit.getByText(`Uploaded ${name} (100%)`)).toBeVisible({ timeout: 0 });
    await expect(edit.locator('input[name="audioUploadId"]')).toHaveValue(/^[0-9a-f]{32}$/);
    await edit.getByRole('button', { name: 'Update Track' }).click();
    await expectToast(page, 'Track updated');
    await expectSaved(page, title, seconds);
    expect(old?.audioFile).toMatch(/^\/uploads\/audio\/[0-9a-f]{32}\.mp3$/);
    expect((await page.request.get(old!.audioFile!)).status()).toBe(404);
  });

  test('without JavaScript: a 60 MB WAV goes with the plain form', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    test.skip(javaScriptEnabled, 'the plain form is what a browser without JavaScript posts');
    const seconds = 6 * 60;
    const file = wavPath('plain-6min.wav');
    expect(writeWav(file, seconds)).toBeGreaterThan(60 * 1000 * 1000);
    const title = unique('E2E Plain Set');
    const dialog = await openNewTrack(page, title);
    await expect(dialog.getByRole('progressbar')).toHaveCount(0);
    await dialog.getByLabel('Audio file').setInputFiles(file);
    await dialog.getByRole('button', { name: 'Create Track' }).click();
    await expect(page).toHaveURL(/\/admin\/tracks$/, { timeout: 0 });
    await expectToast(page, 'Track created');
    await expectSaved(page, title, seconds);
  });
});
