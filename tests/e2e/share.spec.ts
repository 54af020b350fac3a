import type { APIRequestContext, Page } from '@playwright/test';

import { expect, test } from './fixtures';

/**
 * "Share / embed" (issue 29, decision 038): the track page's share dialog (the child route
 * /music/{id}/share) with its size choice, a live preview frame of the embed and the code to
 * copy; the player bar's Share menu; without JavaScript the same route as a page with a GET form
 * and the code in a read-only textarea. The tests only read a demo track (the oldest public one
 * with its stream ready): sharing changes nothing.
 */

type Listed = { id: number; title: string; visibility: string; audioStatus?: string };

async function demoTrack(request: APIRequestContext): Promise<Listed> {
  const tracks = (await (await request.get('/api/tracks')).json()) as Listed[];
  const track = tracks
    .filter((t) => t.visibility === 'public' && (t.audioStatus ?? 'ready') === 'ready')
    .at(-1);
  if (!track) throw new Error('no public demo track');
  return track;
}

const preview = (page: Page) => page.getByTestId('embed-preview');

test.describe('with JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'the dialog and the menu need JS');

  test.beforeEach(async ({ context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  });

  test('the track page shares: a dialog with a live preview, a size choice and the code to copy', async ({
    page,
    request,
  }) => {
    const track = await demoTrack(request);
    await page.goto(`/music/${track.id}`);
    const opener = page.getByRole('link', { name: 'Share / embed' });
    await opener.click();
    await expect(page).toHaveURL(new RegExp(`/music/${track.id}/share$`));
    const dialog = page.getByRole('dialog', { name: `Share ${track.title}` });
    await expect(dialog).toBeVisible();

    // The preview is the embed itself, framed (the CSP of a track page lets exactly it in).
    await expect(preview(page)).toHaveAttribute('src', new RegExp(`/embed/tracks/${track.id}$`));
    await expect(preview(page)).toHaveAttribute('height', '120');
    await expect(preview(page)).toHaveAttribute('width', '600');
    await expect(
      page.frameLocator('[data-testid=embed-preview]').getByRole('button', { name: /play/i }),
    ).toBeVisible();

    // A bigger size: the preview and the code follow without a button.
    await dialog.getByRole('radio', { name: /with a list/ }).check();
    await expect(preview(page)).toHaveAttribute(
      'src',
      new RegExp(`/embed/playlist\\?ids=${track.id}(,\\d+)*$`),
    );
    await expect(preview(page)).toHaveAttribute('height', '400');
    await dialog.getByRole('radio', { name: 'Full width (100%)' }).check();
    await expect(preview(page)).toHaveAttribute('width', '100%');
    await dialog.getByRole('radio', { name: 'Light' }).check();
    await expect(preview(page)).toHaveAttribute('src', /&theme=light$/);
    await expect(page).toHaveURL(/height=list&width=full&theme=light/);

    await dialog.getByRole('button', { name: 'Copy embed code' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Embed code copied to clipboard');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await dialog.getByLabel('Embed code').inputValue());
    expect(copied).toMatch(
      new RegExp(
        `^<iframe src="[^"]+/embed/playlist\\?ids=${track.id}[^"]*theme=light" width="100%" height="400" title="[^"]+"`,
      ),
    );
    expect(copied).toContain('sandbox="allow-scripts allow-popups');

    await dialog.getByRole('button', { name: 'Copy link', exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`/music/${track.id}$`),
    );

    // Escape closes it, back on the track page, focus on the link that opened it.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/music/${track.id}$`));
    await expect(opener).toBeFocused();
  });

  test("the player bar's Share menu copies the link at the current time and opens the dialog", async ({
    page,
    request,
  }) => {
    const track = await demoTrack(request);
    await page.goto(`/music/${track.id}`);
    await page.getByRole('button', { name: `Play ${track.title}` }).click();
    const bar = page.getByRole('region', { name: 'Audio player' }).last();
    await expect(bar.getByTestId('player-title')).toHaveText(track.title);

    const menuButton = bar.getByRole('button', { name: 'Share' });
    await expect(menuButton).toHaveAttribute('aria-haspopup', 'menu');
    await menuButton.click();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    const menu = bar.getByRole('menu', { name: 'Share' });
    await expect(menu.getByRole('menuitem', { name: 'Share / embed' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();

    // Keyboard only: open, arrow to the second item, Enter.
    await page.keyboard.press('Enter');
    await expect(menu.getByRole('menuitem', { name: 'Share / embed' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Copy link at current time' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(bar.getByRole('status')).toHaveText('Link copied');
    // No `?t=` before the first second; then the time as the share menu writes it
    // (deepLinkTime in app/utils/media-time.ts): `45s`, `2m05s`, `1h02m30s`.
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`/music/${track.id}(\\?t=(\\d+h\\d{2}m\\d{2}s|\\d+m\\d{2}s|\\d+s))?$`),
    );

    await menuButton.click();
    await menu.getByRole('menuitem', { name: 'Share / embed' }).click();
    await expect(page.getByRole('dialog', { name: `Share ${track.title}` })).toBeVisible();
    await expect(preview(page)).toHaveAttribute('src', new RegExp(`/embed/tracks/${track.id}`));
  });

  test('reached by a link from /music, the dialog frames the preview without a reload', async ({
    page,
    request,
  }) => {
    const track = await demoTrack(request);
    // The document stays /music's: Remix navigates to the track without a reload. The grid is
    // paged (the oldest track is on its last page): the track through the search.
    await page.goto(`/music?q=${encodeURIComponent(track.title)}`);
    const loadedAt = await page.evaluate(() => performance.timeOrigin);
    await page.locator(`a[href="/music/${track.id}"]`).first().click();
    await expect(page).toHaveURL(new RegExp(`/music/${track.id}$`));
    await page.getByRole('link', { name: 'Share / embed' }).click();
    await expect(page.getByRole('dialog', { name: `Share ${track.title}` })).toBeVisible();
    await expect(preview(page)).toHaveAttribute('src', new RegExp(`/embed/tracks/${track.id}`));
    await expect(
      page.frameLocator('[data-testid=embed-preview]').getByRole('button', { name: /play/i }),
    ).toBeVisible();
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(loadedAt);
  });

  test("every page may frame this site's embed, and nothing else", async ({ request }) => {
    const track = await demoTrack(request);
    const csp = async (path: string) =>
      (await request.get(path)).headers()['content-security-policy'] ?? '';
    for (const path of ['/', '/music', `/music/${track.id}`, `/music/${track.id}/share`]) {
      expect(await csp(path), path).toMatch(/frame-src https?:\/\/[^ ;]+\/embed\/;/);
      expect(await csp(path), path).toContain("frame-ancestors 'none'");
    }
  });
});

test.describe('without JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, 'the no-JS share page');

  test('the share page gives the code for the chosen size in a read-only textarea', async ({
    page,
    request,
  }) => {
    const track = await demoTrack(request);
    await page.goto(`/music/${track.id}`);
    await page.getByRole('link', { name: 'Share / embed' }).click();
    await expect(page).toHaveURL(new RegExp(`/music/${track.id}/share#share-link$`));
    const code = page.getByLabel('Embed code');
    await expect(code).toHaveAttribute('readonly', '');
    await expect(code).toHaveValue(
      new RegExp(`^<iframe src="[^"]+/embed/tracks/${track.id}" width="600" height="120"`),
    );
    await expect(preview(page)).toHaveAttribute('height', '120');

    await page.getByRole('radio', { name: /with a list/ }).check();
    await page.getByRole('radio', { name: 'Full width (100%)' }).check();
    await page.getByRole('button', { name: 'Update the code' }).click();
    await expect(page).toHaveURL(/height=list&width=full[^#]*#share-link$/);
    await expect(code).toHaveValue(
      new RegExp(
        `^<iframe src="[^"]+/embed/playlist\\?ids=${track.id}[^"]*" width="100%" height="400"`,
      ),
    );
    await expect(preview(page)).toHaveAttribute('height', '400');
    await expect(preview(page)).toHaveAttribute('width', '100%');
    await expect(page.getByRole('textbox', { name: 'Link', exact: true })).toHaveValue(
      new RegExp(`/music/${track.id}$`),
    );
  });
});
