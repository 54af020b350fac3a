import { expect, test } from './fixtures';

test('the home page renders the seeded tracks from the database', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Echoes of the Night');
  // Demo tracks are seeded on the first start; their titles come from the database.
  await expect(page.getByRole('heading', { name: 'Our Music' })).toBeVisible();
  const trackTitles = page.locator('[data-testid="track-card"] h3');
  await expect(trackTitles).toHaveCount(3);
});
