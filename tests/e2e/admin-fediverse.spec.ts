import { unique } from './admin-helpers';
import { expect, test } from './fixtures';

/**
 * /admin/fediverse (issue 40, decision 053), with JavaScript on and off: the handle and the
 * followers count, the blocks tab, blocking a domain and an account through the forms (real
 * posts, a redirect and a flash message), a refused form's error rendered by the server, and
 * unblocking. Followers themselves come from a real peer in tests/api/fediverse.spec.ts.
 */
test('the admin blocks and unblocks a domain and an account, with and without JavaScript', async ({
  adminPage: page,
}) => {
  await page.goto('/admin');
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Fediverse' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Fediverse' })).toBeVisible();
  await expect(page.getByTestId('fediverse-address')).toHaveText(/^@night_shore@localhost:\d+$/);
  await expect(page.getByTestId('followers-count')).toHaveText(/^\d+ followers?$/);

  await page.getByRole('link', { name: 'Blocks' }).click();
  await expect(page).toHaveURL(/\/admin\/fediverse\?tab=blocks$/);

  // A refused form: the server's error, under its field.
  await page.getByRole('textbox', { name: 'Domain', exact: true }).fill('not a domain!');
  await page.getByRole('button', { name: 'Block domain' }).click();
  await expect(page.getByText('Enter a domain such as mastodon.example')).toBeVisible();

  const domain = `${unique('blocked')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}.example`;
  await page.getByRole('textbox', { name: 'Domain', exact: true }).fill(domain);
  await page.getByRole('button', { name: 'Block domain' }).click();
  await expect(page.getByText('Domain blocked').first()).toBeVisible();
  const blocks = page.getByTestId('blocks-table');
  await expect(blocks.getByRole('rowheader', { name: domain })).toBeVisible();

  const actor = `https://${domain.replace('.example', '.social')}/users/someone`;
  await page.getByRole('textbox', { name: 'Account address' }).fill(actor);
  await page.getByRole('button', { name: 'Block account' }).click();
  await expect(page.getByText('Account blocked').first()).toBeVisible();
  await expect(blocks.getByRole('rowheader', { name: actor })).toBeVisible();

  for (const value of [domain, actor]) {
    await page.getByRole('button', { name: `Unblock ${value}` }).click();
    await expect(page.getByText('Unblocked').first()).toBeVisible();
    await expect(page.getByRole('button', { name: `Unblock ${value}` })).toHaveCount(0);
  }
});
