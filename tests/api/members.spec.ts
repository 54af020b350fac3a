import { expect, test } from '@playwright/test';

import {
  disposeRoles,
  expectEntity,
  expectFieldErrors,
  expectJson,
  expectList,
  files,
  type Roles,
  roles,
  SAME_ORIGIN,
  siteDay,
  unique,
} from './helpers';

/**
 * Members-only blog posts and early access (decision 017), for each reader: anonymous, a
 * member (a plain registered account) and an admin × the list, the post, its page, the feeds
 * and the sitemap. (Members-only tracks and their audio files: tracks.spec.ts, which owns the
 * tracks of this server.) Every test creates its own posts and asserts on them only.
 */
let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
});

const SECRET = 'The whole story, only for members: the b-side is called Low Tide.';

type Post = {
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  visibility: string;
  publicAt: string | null;
  locked: boolean;
};

async function createPost(extra: Record<string, string>): Promise<Post> {
  const slug = `members-${unique()}`;
  return expectEntity(
    await expectJson(
      await r.admin.post('/api/admin/blog', {
        multipart: {
          title: `Studio diary ${slug}`,
          slug,
          content: `${SECRET} (${slug})`,
          excerpt: `A look inside the studio (${slug}).`,
          category: 'NEWS',
          image: files.cover(),
          ...extra,
        },
        headers: SAME_ORIGIN,
      }),
      201,
    ),
    'blog',
  ) as unknown as Post;
}

const remove = (post: Post) =>
  r.admin.delete(`/api/admin/blog/${post.id}`, { headers: SAME_ORIGIN });

test('a members-only post: locked for anonymous callers everywhere, whole for members and admins', async () => {
  const post = await createPost({ visibility: 'members' });
  expect(post).toMatchObject({ visibility: 'members', publicAt: null, locked: false });
  const content = `${SECRET} (${post.slug})`;

  for (const [who, ctx, locked] of [
    ['anonymous', r.anon, true],
    ['member', r.user, false],
    ['admin', r.admin, false],
  ] as const) {
    const one = expectEntity(
      await expectJson(await ctx.get(`/api/blog/${post.slug}`), 200),
      'blog',
    );
    expect(one.locked, who).toBe(locked);
    expect(one.content, who).toBe(locked ? undefined : content);
    const list = expectList(await expectJson(await ctx.get('/api/blog'), 200), 'blog');
    expect(list.find((p) => p.id === post.id)?.locked, who).toBe(locked);

    const page = await ctx.get(`/blog/${post.slug}`);
    expect(page.status()).toBe(200);
    const html = await page.text();
    expect(html).toContain(post.title);
    expect(html).toContain(post.excerpt);
    if (locked) {
      expect(html, who).not.toContain(SECRET);
      expect(html).toContain('Members only: log in or register to read');
      expect(html).toContain(`/auth?redirectTo=${encodeURIComponent(`/blog/${post.slug}`)}`);
      expect(html).toMatch(/isAccessibleForFree(&quot;|")\s*:\s*false/);
    } else {
      expect(html, who).toContain(SECRET);
      expect(html).not.toContain('Members only: log in or register to read');
    }
  }
  // The list pages hold no bodies for anyone; for anonymous visitors they mark the post.
  const blogPage = await (await r.anon.get('/blog')).text();
  expect(blogPage).not.toContain(SECRET);
  expect(blogPage).toContain('Log in to read');
  expect(await (await r.anon.get('/')).text()).not.toContain(SECRET);

  // Feeds are the same for everyone and never carry a body.
  for (const ctx of [r.anon, r.user]) {
    const rss = await (await ctx.get('/blog/rss.xml')).text();
    expect(rss).toContain(post.title);
    expect(rss).not.toContain(SECRET);
    expect(rss).toMatch(
      new RegExp(`${post.slug}</link>[\\s\\S]*?<category>Members only</category>`),
    );
    const sitemap = await (await ctx.get('/sitemap.xml')).text();
    expect(sitemap).not.toContain(`/blog/${post.slug}<`);
  }
  expect((await remove(post)).status()).toBe(204);
});

test('early access: members-only until publicAt, public from that day (computed when read)', async () => {
  const future = await createPost({ visibility: 'members', publicAt: siteDay(2) });
  const past = await createPost({ visibility: 'members', publicAt: siteDay(-2) });
  expect(future.publicAt).toBe(siteDay(2));

  const anonFuture = expectEntity(
    await expectJson(await r.anon.get(`/api/blog/${future.slug}`), 200),
    'blog',
  );
  expect(anonFuture).toMatchObject({ locked: true, publicAt: siteDay(2) });
  const page = await (await r.anon.get(`/blog/${future.slug}`)).text();
  expect(page).not.toContain(SECRET);
  expect(page).toMatch(/Public on [A-Z][a-z]+ \d{1,2}, \d{4}/);

  const anonPast = expectEntity(
    await expectJson(await r.anon.get(`/api/blog/${past.slug}`), 200),
    'blog',
  );
  expect(anonPast).toMatchObject({ locked: false, content: `${SECRET} (${past.slug})` });
  expect(await (await r.anon.get(`/blog/${past.slug}`)).text()).toContain(SECRET);
  const sitemap = await (await r.anon.get('/sitemap.xml')).text();
  expect(sitemap).toContain(`/blog/${past.slug}<`);
  expect(sitemap).not.toContain(`/blog/${future.slug}<`);

  for (const post of [future, past]) expect((await remove(post)).status()).toBe(204);
});

test('visibility and publicAt are validated by the shared schema; a PUT without them keeps them', async () => {
  const before = (await expectJson(await r.admin.get('/api/blog'), 200)) as unknown[];
  const slug = `bad-${unique()}`;
  await expectFieldErrors(
    await r.admin.post('/api/admin/blog', {
      multipart: {
        title: 'Bad',
        slug,
        content: 'Content here',
        excerpt: 'Excerpt',
        visibility: 'everyone',
        publicAt: 'next week',
        image: files.cover(),
      },
      headers: SAME_ORIGIN,
    }),
    {
      visibility: 'Visibility must be "public" or "members"',
      publicAt: 'Public on must be a date (YYYY-MM-DD)',
    },
  );
  expect(((await expectJson(await r.admin.get('/api/blog'), 200)) as unknown[]).length).toBe(
    before.length,
  );

  const post = await createPost({ visibility: 'members', publicAt: siteDay(5) });
  const kept = (await expectJson(
    await r.admin.put(`/api/admin/blog/${post.id}`, {
      multipart: { title: post.title, slug: post.slug, content: 'New body', excerpt: 'New' },
      headers: SAME_ORIGIN,
    }),
    200,
  )) as Post;
  expect(kept).toMatchObject({ visibility: 'members', publicAt: siteDay(5) });
  const opened = (await expectJson(
    await r.admin.put(`/api/admin/blog/${post.id}`, {
      multipart: {
        title: post.title,
        slug: post.slug,
        content: 'New body',
        excerpt: 'New',
        visibility: 'public',
      },
      headers: SAME_ORIGIN,
    }),
    200,
  )) as Post;
  expect(opened).toMatchObject({ visibility: 'public', publicAt: null });
  expect((await expectJson(await r.anon.get(`/api/blog/${post.slug}`), 200)) as Post).toMatchObject(
    { locked: false },
  );
  expect((await remove(post)).status()).toBe(204);
});
