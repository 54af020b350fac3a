import fs from 'node:fs';

import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';

import { audioFile, coverFile, unique } from './admin-helpers';
import { ADMIN, expect, test, USER } from './fixtures';
import { dateFromToday } from './public-helpers';

/**
 * Members-only content from a visitor's side (decision 017), with JavaScript on and off: the
 * lock on a track and on a post, the way in through /auth, and the way back to what was locked.
 * Each test makes its own members-only track or post through the admin API and removes it.
 */

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Origin: baseURL },
  });
  const login = await api.post('/api/login', { data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

const upload = (file: string, mimeType: string) => ({
  name: file.split('/').pop()!,
  mimeType,
  buffer: fs.readFileSync(file),
});

test('a visitor meets a members-only track, registers, comes back to it and plays it', async ({
  page,
  baseURL,
  javaScriptEnabled,
  accounts: _accounts,
}) => {
  const admin = await adminApi(baseURL!);
  const title = unique('Members Cut');
  const created = await admin.post('/api/admin/tracks', {
    multipart: {
      title,
      visibility: 'members',
      // Early access: the card says when it turns public (days ahead, whatever the time zone).
      publicAt: dateFromToday(4),
      coverImage: upload(coverFile(), 'image/jpeg'),
      audioFile: upload(audioFile(), 'audio/mpeg'),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const track = (await created.json()) as { id: number; audioFile: string };
  try {
    // Found through the search: the grid is paged, and other tests add tracks meanwhile.
    await page.goto(`/music?q=${encodeURIComponent(title)}`);
    const card = page.locator(`article[data-track-id="${track.id}"]`);
    await expect(card).toContainText('Members only');
    await expect(card).toContainText(/Public on [A-Z][a-z]+ \d{1,2}, \d{4}/);
    await expect(card.locator('audio')).toHaveCount(0);
    await expect(card.getByRole('button')).toHaveCount(0);
    await expect(
      page.locator(`[src="${track.audioFile}"], [href="${track.audioFile}"]`),
    ).toHaveCount(0);
    // The file itself is refused to this browser, whatever asks for it.
    expect((await page.request.get(track.audioFile)).status()).toBe(401);

    await card.getByRole('link', { name: `Log in to play ${title}` }).click();
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fmusic%3Ftrack%3D/);
    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Register' })
      .click();
    await expect(page).toHaveURL(/tab=register/);
    const form = page.locator('#register-form');
    const username = `fan${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password', { exact: true }).fill('fan-password-1');
    await form.getByLabel('Confirm Password').fill('fan-password-1');
    await form.getByRole('button', { name: 'Create Account' }).click();

    await expect(page).toHaveURL(new RegExp(`/music\\?track=${track.id}$`));
    const unlocked = page.locator(`article[data-track-id="${track.id}"]`);
    await expect(unlocked).not.toHaveAttribute('data-locked');
    await expect(unlocked).not.toContainText('Members only');
    if (javaScriptEnabled) {
      // ?track= loaded it into the site-wide player; Play starts it.
      await expect(page.getByTestId('player-title').first()).toHaveText(title);
      await unlocked.getByRole('button', { name: `Play ${title}`, exact: true }).click();
      await expect(
        unlocked.getByRole('button', { name: `Pause ${title}`, exact: true }),
      ).toBeVisible();
      await expect
        .poll(() =>
          page.evaluate(() => {
            const audio = document.querySelector<HTMLAudioElement>('audio#site-audio');
            return audio ? { src: audio.currentSrc, playing: !audio.paused } : null;
          }),
        )
        .toMatchObject({ src: expect.stringContaining(track.audioFile), playing: true });
    } else {
      const player = unlocked.locator('audio[controls]');
      await expect(player).toHaveAttribute('src', track.audioFile);
      const bytes = await page.request.get(track.audioFile, { headers: { Range: 'bytes=0-99' } });
      expect(bytes.status()).toBe(206);
      expect((await bytes.body()).length).toBe(100);
    }
  } finally {
    expect((await admin.delete(`/api/admin/tracks/${track.id}`)).status()).toBe(204);
    await admin.dispose();
  }
});

test('a members-only post shows its excerpt to a visitor, and its story once logged in', async ({
  page,
  baseURL,
  request,
  accounts: _accounts,
}) => {
  const admin = await adminApi(baseURL!);
  const slug = `members-post-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const story = `Backstage at the Stone Pony, for members (${slug}).`;
  const created = await admin.post('/api/admin/blog', {
    multipart: {
      title: `Backstage ${slug}`,
      slug,
      content: story,
      excerpt: 'What happens after the last song.',
      category: 'NEWS',
      visibility: 'members',
      image: upload(coverFile(), 'image/jpeg'),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  // The member account of the fixtures (registering a taken name again is fine).
  await request.post('/auth', {
    form: { intent: 'register', ...USER, confirmPassword: USER.password },
    maxRedirects: 0,
  });
  try {
    await page.goto(`/blog/${slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Backstage ${slug}`);
    await expect(page.getByText('What happens after the last song.')).toBeVisible();
    await expect(
      page.getByRole('heading', { name: 'Members only: log in or register to read' }),
    ).toBeVisible();
    await expect(page.getByText(story)).toHaveCount(0);

    await page.getByRole('link', { name: 'Log in', exact: true }).click();
    const form = page.locator('#login-form');
    await form.getByLabel('Username').fill(USER.username);
    await form.getByLabel('Password').fill(USER.password);
    await form.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
    await expect(page.getByTestId('post-content')).toHaveText(story);
  } finally {
    expect((await admin.delete(`/api/admin/blog/${id}`)).status()).toBe(204);
    await admin.dispose();
  }
});
