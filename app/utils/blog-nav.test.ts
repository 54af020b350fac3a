import { type EmbeddedMongo, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as BlogPostModule from '~/models/blog-post.server';
import type * as DbModule from '~/platform/db.server';

import { FULL_ACCESS } from './access';
import { neighboursInList } from './blog-nav';

const list = ['newest', 'middle', 'oldest'].map((slug) => ({ slug }));

describe('neighboursInList (previous/next by list order, newest first)', () => {
  it('gives the newer post as previous and the older one as next', () => {
    expect(neighboursInList(list, 'middle')).toEqual({
      previous: { slug: 'newest' },
      next: { slug: 'oldest' },
    });
  });
  it('has no previous for the first post and no next for the last', () => {
    expect(neighboursInList(list, 'newest')).toEqual({ previous: null, next: { slug: 'middle' } });
    expect(neighboursInList(list, 'oldest')).toEqual({ previous: { slug: 'middle' }, next: null });
  });
  it('has neither for a single post or an unknown slug', () => {
    expect(neighboursInList([{ slug: 'only' }], 'only')).toEqual({ previous: null, next: null });
    expect(neighboursInList(list, 'missing')).toEqual({ previous: null, next: null });
  });
});

describe('getBlogPostWithNeighbours follows the same rule as the blog list', () => {
  let store: EmbeddedMongo;
  let blog: typeof BlogPostModule;
  let db: typeof DbModule;

  beforeAll(async () => {
    process.env.SEED = 'false';
    store = await startEmbeddedMongo();
    db = await import('~/platform/db.server');
    await db.connectDb({ uri: store.uri, dbName: 'blog-nav-test' });
    blog = await import('~/models/blog-post.server');
    for (const slug of ['first-post', 'second-post', 'third-post', 'fourth-post']) {
      await blog.createBlogPost({
        title: slug,
        slug,
        content: 'Content',
        excerpt: 'Excerpt',
        imageUrl: '/placeholder-album.jpg',
        category: 'NEWS',
      });
      await new Promise((r) => setTimeout(r, 5)); // distinct createdAt
    }
  });

  afterAll(async () => {
    await db.disconnectDb();
    await store.stop();
  });

  it('matches neighboursInList over listBlogPosts for every post', async () => {
    const posts = await blog.listBlogPosts();
    expect(posts.map((p) => p.slug)).toEqual([
      'fourth-post',
      'third-post',
      'second-post',
      'first-post',
    ]);
    for (const post of posts) {
      const found = await blog.getBlogPostWithNeighbours(FULL_ACCESS, post.slug);
      const expected = neighboursInList(posts, post.slug);
      expect(found?.previous?.slug ?? null).toBe(expected.previous?.slug ?? null);
      expect(found?.next?.slug ?? null).toBe(expected.next?.slug ?? null);
    }
  });

  it('returns null for an unknown slug', async () => {
    expect(await blog.getBlogPostWithNeighbours(FULL_ACCESS, 'nope')).toBeNull();
  });
});
