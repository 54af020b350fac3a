import { expect, test } from '@playwright/test';

import { disposeRoles, files, type Roles, roles, SAME_ORIGIN, unique } from '../helpers';

/**
 * HTML typed into text fields (shows, a post, a contact message) is rendered as text on the
 * public and admin pages: no injected element, script or handler.
 */

let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
});

test('HTML typed into text fields is rendered as text on public and admin pages', async () => {
  const m = unique();
  const payload = `<img src=x onerror="window.__pwned_${m}=1"><script>window.__pwned_${m}=1</script><b>bold-${m}</b>`;
  const escaped = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const show = await r.admin.post('/api/admin/shows', {
    data: {
      title: payload,
      venue: payload,
      location: 'Asbury Park, NJ',
      date: '2031-06-01',
      time: '9:00 PM',
      description: payload,
    },
    headers: SAME_ORIGIN,
  });
  expect(show.status()).toBe(201);
  const post = await r.admin.post('/api/admin/blog', {
    multipart: {
      title: `Title ${payload}`,
      slug: `html-${m}`,
      content: `Para ${payload}\n\nMore`,
      excerpt: payload.slice(0, 200),
      category: 'NEWS',
      image: files.cover(),
    },
    headers: SAME_ORIGIN,
  });
  expect(post.status()).toBe(201);
  const message = await r.anon.post('/api/contact', {
    data: {
      name: `<b>bold-${m}</b>`,
      email: `html-${m}@example.com`,
      subject: 'Booking Inquiry',
      message: `Hello ${payload}`,
    },
    headers: SAME_ORIGIN,
  });
  expect(message.status()).toBe(201);
  const messageId = ((await message.json()) as { id: number }).id;

  for (const [ctx, path] of [
    [r.anon, '/shows'],
    [r.anon, `/blog/html-${m}`],
    [r.anon, '/blog'],
    [r.admin, '/admin/messages'],
    [r.admin, `/admin/messages/${messageId}`],
  ] as const) {
    const html = await (await ctx.get(path)).text();
    expect(html, `${path} shows the text`).toContain(escaped(`<b>bold-${m}</b>`));
    expect(html, `${path} has no injected element`).not.toContain(`<b>bold-${m}</b>`);
    expect(html, `${path} has no injected script`).not.toContain(`<script>window.__pwned_${m}`);
    expect(html, `${path} has no injected handler`).not.toMatch(
      new RegExp(`<img src=x onerror="window.__pwned_${m}`),
    );
  }
  const showId = ((await show.json()) as { id: number }).id;
  await r.admin.delete(`/api/admin/shows/${showId}`, { headers: SAME_ORIGIN });
  await r.admin.delete(`/api/admin/blog/${((await post.json()) as { id: number }).id}`, {
    headers: SAME_ORIGIN,
  });
  await r.admin.delete(`/api/admin/messages/${messageId}`, { headers: SAME_ORIGIN });
});
