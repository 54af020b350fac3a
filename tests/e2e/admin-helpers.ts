import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, type Page } from '@playwright/test';

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

/**
 * A lock shared by every worker of the run (both projects), for tests that change global
 * state such as which track is featured. The `featured` lock is held by every test that
 * features a track, randomizes the featured track or reads it, and by every test that creates,
 * renames or deletes a track: Randomize picks among all tracks, so a track another test renames
 * or deletes meanwhile would leave the home page without the featured track it announced.
 */
export async function withRunLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = path.join(process.env.E2E_DIR ?? os.tmpdir(), `${name}.lock`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the ${name} lock`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const toast = (page: Page) => page.getByTestId('toast');

/**
 * Close the visible toast (without JavaScript a flash toast stays until dismissed, and it
 * sits over the top-right header buttons).
 */
export async function dismissToast(page: Page) {
  const card = page.getByTestId('toast').first();
  if (!(await card.isVisible())) return;
  try {
    await card.locator('button, input[type="checkbox"]').first().click({ timeout: 5_000 });
  } catch (error) {
    // With JavaScript a toast also closes itself after a few seconds; on a slow machine that
    // can happen between the check above and the click. Gone is what this helper is for.
    if (await card.isVisible()) throw error;
  }
  await card.waitFor({ state: 'hidden' });
}

/** Assert the toast's text, then close it so it covers nothing the test clicks next. */
export async function expectToast(page: Page, text: string) {
  await expect(page.getByTestId('toast')).toContainText(text);
  await dismissToast(page);
}
