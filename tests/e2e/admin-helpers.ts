import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, type Page, test } from '@playwright/test';

import { e2eUploadsDir } from './fixtures';

/** Unique per call: the tests share one database and run in parallel (both projects). */
export const unique = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

const FIXTURES = path.resolve('tests/fixtures');

/** A real cover: a demo cover when generated, else the small fixture. */
export function coverFile(): string {
  const dir = path.resolve('demo/media/covers');
  const demo = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.jpg')) : undefined;
  return demo ? path.join(dir, demo) : path.join(FIXTURES, 'cover.jpg');
}

/** A real MP3: a demo track when generated, else the 3-second fixture. */
export function audioFile(): string {
  const dir = path.resolve('demo/media/audio');
  const demo = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.mp3')) : undefined;
  return demo ? path.join(dir, demo) : path.join(FIXTURES, 'short.mp3');
}

export const fixture = (name: string) => path.join(FIXTURES, name);

/** A file just over the 10 MB image limit that starts like a real JPEG. */
export function oversizeJpeg(): string {
  const file = path.join(os.tmpdir(), 'night-shore-e2e-oversize.jpg');
  if (!fs.existsSync(file) || fs.statSync(file).size !== 11 * 1024 * 1024) {
    const buffer = Buffer.alloc(11 * 1024 * 1024, 0);
    fs.readFileSync(fixture('cover.jpg')).copy(buffer);
    fs.writeFileSync(file, buffer);
  }
  return file;
}

/** The file on disk behind an /uploads/... URL of the e2e server. */
export const uploadedPath = (url: string) =>
  path.join(
    e2eUploadsDir(),
    decodeURIComponent(url.replace(/^\/uploads\//, '').split('?')[0] ?? ''),
  );

/** Every file under the e2e uploads folder with the given extension (e.g. '.wav', '.part'). */
export function uploadedFilesEndingWith(suffix: string): string[] {
  const out: string[] = [];
  for (const sub of ['audio', 'images']) {
    const dir = path.join(e2eUploadsDir(), sub);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir)) if (f.endsWith(suffix)) out.push(`${sub}/${f}`);
  }
  return out;
}

/** Whether the process that wrote `owner` (a pid) is gone: its lock is stale. */
function ownerGone(owner: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(owner, 'utf8'));
  } catch {
    return false; // not written yet: the owner is between mkdir and write
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The longest any test waits for its turn at a run lock (a safety net, never reached). */
const LOCK_WAIT_LIMIT_MS = 10 * 60_000;

/**
 * A lock shared by every worker of the run (both projects), for the short stretch in which a
 * test changes global state and reads it back, such as which track is featured. Hold it around
 * that stretch only (no uploads, no long flows): every other test that needs it waits.
 *
 * The time spent waiting is added to the waiting test's timeout: a turn taken by others says
 * nothing about the test itself, and on a busy machine the holders are slower, so a fixed
 * budget for the wait would fail a good test. A lock left by a worker that died (its pid is
 * gone) is taken over.
 *
 * The `featured` lock: Randomize picks among all tracks, and the home page shows the newest
 * featured track. So the lock is held by the test that features or randomizes (from the change
 * until it has read the home page and put the featured flags back), by the tests that read the
 * featured track or compare the flags before and after, and around each rename or delete of a
 * track (a track chosen by Randomize must keep its name until the home page has been read).
 * Outside the lock the featured track is always the seeded one.
 */
export async function withRunLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = path.join(process.env.E2E_DIR ?? os.tmpdir(), `${name}.lock`);
  const owner = path.join(dir, 'owner');
  const info = test.info();
  await test.step(`wait for the ${name} lock`, async () => {
    const started = Date.now();
    let last = started;
    for (;;) {
      try {
        fs.mkdirSync(dir);
        fs.writeFileSync(owner, String(process.pid));
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (ownerGone(owner)) {
        fs.rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > LOCK_WAIT_LIMIT_MS)
        throw new Error(`Waited ${LOCK_WAIT_LIMIT_MS / 60_000} minutes for the ${name} lock`);
      await new Promise((r) => setTimeout(r, 100));
      const now = Date.now();
      if (info.timeout > 0) info.setTimeout(info.timeout + (now - last));
      last = now;
    }
  });
  try {
    return await fn();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const toast = (page: Page) => page.getByTestId('toast');

/**
 * Close the visible toast (without JavaScript a flash toast stays until dismissed, and it
 * sits over the top-right header buttons). With JavaScript a toast also closes itself after
 * 5 seconds, which on a busy machine can happen while the dismiss is being clicked: the
 * attempt is repeated until no toast is visible, whichever of the two closed it.
 */
export async function dismissToast(page: Page) {
  const card = page.getByTestId('toast').first();
  await expect(async () => {
    if (await card.isVisible()) {
      // The no-JS dismiss is a checkbox (checking it again is harmless); with JS a button.
      const checkbox = card.locator('input[type="checkbox"]');
      if ((await checkbox.count()) > 0) await checkbox.first().check({ timeout: 2_000 });
      else await card.getByRole('button').first().click({ timeout: 2_000 });
    }
    await expect(card).toBeHidden({ timeout: 2_000 });
  }).toPass();
}

/** Assert the toast's text, then close it so it covers nothing the test clicks next. */
export async function expectToast(page: Page, text: string) {
  await expect(page.getByTestId('toast')).toContainText(text);
  await dismissToast(page);
}
