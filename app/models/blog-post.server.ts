import mongoose, { Schema } from 'mongoose';

import { deleteUploadedFile } from '~/files/stored-files.server';
import type { BlogPostJSON, BlogPostView, Visibility } from '~/types/entities';
import { isMembersOnly, postFor, type Viewer } from '~/utils/access';

import { serialIdPlugin } from './counter.server';
import {
  cachedFind,
  cachedFindOne,
  defineModel,
  isDuplicateKeyError,
  iso,
} from './model-helpers.server';
import {
  afterFilter,
  countRecords,
  findNumberedPage,
  type NumberedPage,
  type PageSort,
  type RecordList,
  streamRecords,
} from './paging.server';

type BlogPostDoc = {
  id: number;
  title: string;
  slug: string;
  content: string;
  excerpt: string;
  imageUrl: string;
  category: string;
  visibility?: Visibility;
  /** YYYY-MM-DD: a members-only post turns public on this day (early access). */
  publicAt?: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const BlogPostSchema = new Schema<BlogPostDoc>(
  {
    title: { type: String, required: true, trim: true },
    slug: { type: String, required: true, unique: true },
    content: { type: String, required: true },
    excerpt: { type: String, required: true },
    imageUrl: { type: String, required: true },
    category: { type: String, required: true, default: 'NEWS', index: true },
    visibility: { type: String, enum: ['public', 'members'], default: 'public' },
    publicAt: { type: String, default: null },
  },
  { timestamps: true },
);
BlogPostSchema.plugin(serialIdPlugin, { counter: 'blog_posts' });
BlogPostSchema.index({ createdAt: -1, id: -1 });
// The back office's category tabs, newest first (issue 37).
// GET /api/blog?category=…: one category, newest first (decision 045).
// /blog?category=…: one category's posts, newest first, a page at a time.
BlogPostSchema.index({ category: 1, createdAt: -1, id: -1 });

export const BlogPost = defineModel<BlogPostDoc>('BlogPost', BlogPostSchema, 'blog_posts');

export function toBlogPostJSON(p: BlogPostDoc): BlogPostJSON {
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    content: p.content,
    excerpt: p.excerpt,
    imageUrl: p.imageUrl,
    category: p.category,
    visibility: p.visibility === 'members' ? 'members' : 'public',
    publicAt: p.visibility === 'members' ? (p.publicAt ?? null) : null,
    createdAt: iso(p.createdAt),
    locked: false,
  };
}

export class SlugTakenError extends Error {
  constructor() {
    super('A post with this slug already exists');
  }
}

const NEWEST_FIRST = { createdAt: -1, id: -1 } as const;

/** Newest first, optionally one category. */
export async function listBlogPosts(
  options: { category?: string; limit?: number } = {},
): Promise<BlogPostJSON[]> {
  const filter: Record<string, unknown> = {};
  if (options.category) filter.category = options.category;
  const docs = await cachedFind(BlogPost, { filter, sort: NEWEST_FIRST, limit: options.limit });
  return docs.map(toBlogPostJSON);
}

export type BlogPostCardJSON = Omit<BlogPostJSON, 'content' | 'locked'> & { locked: boolean };

/**
 * The posts of a list page (home, /blog): what the cards show, without the bodies (which
 * would only weigh down each page's data); `locked` when `viewer` may not read the post.
 */
export async function listBlogPostCards(
  viewer: Viewer,
  options: { category?: string; limit?: number } = {},
): Promise<BlogPostCardJSON[]> {
  return (await listBlogPostsFor(viewer, options)).map((post) => {
    if (post.locked) return post;
    const { content: _content, ...card } = post;
    return card;
  });
}

/** Posts on one page of /blog (the first shown as featured, then a grid of 12). */
export const BLOG_POSTS_PER_PAGE = 13;

/** The fields a card shows: everything but the body. */
const CARD_FIELDS = [
  'id',
  'title',
  'slug',
  'excerpt',
  'imageUrl',
  'category',
  'visibility',
  'publicAt',
  'createdAt',
] as const;

/**
 * One page of /blog (issue 37), optionally one category, newest first: only the cards' fields
 * are read (no `content`), `locked` when `viewer` may not read the post. A page past the end is
 * the last page.
 */
export async function findBlogPostCardPage(
  viewer: Viewer,
  options: { category?: string | null; page: number; perPage?: number },
): Promise<NumberedPage<BlogPostCardJSON>> {
  const found = await findNumberedPage(BlogPost, {
    filter: options.category ? { category: options.category } : {},
    sort: NEWEST_FIRST,
    fields: CARD_FIELDS,
    page: options.page,
    perPage: options.perPage ?? BLOG_POSTS_PER_PAGE,
  });
  return {
    ...found,
    items: found.items.map((p) => {
      const visibility = p.visibility === 'members' ? 'members' : 'public';
      const publicAt = visibility === 'members' ? (p.publicAt ?? null) : null;
      return {
        id: p.id,
        title: p.title,
        slug: p.slug,
        excerpt: p.excerpt,
        imageUrl: p.imageUrl,
        category: p.category,
        visibility,
        publicAt,
        createdAt: iso(p.createdAt),
        locked: !viewer.member && isMembersOnly({ visibility, publicAt }, viewer.today),
      };
    }),
  };
}

/** Each post as `viewer` may see it (members-only ones without their content). */
export async function listBlogPostsFor(
  viewer: Viewer,
  options: { category?: string; limit?: number } = {},
): Promise<BlogPostView[]> {
  return (await listBlogPosts(options)).map((p) => postFor(viewer, p));
}

export async function getBlogPostBySlug(slug: string): Promise<BlogPostJSON | null> {
  if (typeof slug !== 'string' || slug.length > 200) return null;
  const doc = await cachedFindOne(BlogPost, { filter: { slug } });
  return doc ? toBlogPostJSON(doc) : null;
}

export async function getBlogPostBySlugFor(
  viewer: Viewer,
  slug: string,
): Promise<BlogPostView | null> {
  const post = await getBlogPostBySlug(slug);
  return post ? postFor(viewer, post) : null;
}

export async function getBlogPost(id: number): Promise<BlogPostJSON | null> {
  const doc = await cachedFindOne(BlogPost, { filter: { id } });
  return doc ? toBlogPostJSON(doc) : null;
}

/**
 * A post with its neighbours in list order (newest first): `previous` is the newer
 * post before it in the list, `next` the older one after it. Two indexed reads of one post
 * each, on either side of the post's own sort key (issue 37), never the list.
 */
export async function getBlogPostWithNeighbours(
  viewer: Viewer,
  slug: string,
): Promise<{
  post: BlogPostView;
  previous: Pick<BlogPostJSON, 'slug' | 'title'> | null;
  next: Pick<BlogPostJSON, 'slug' | 'title'> | null;
} | null> {
  const found = await getBlogPostBySlug(slug);
  if (!found) return null;
  const post = postFor(viewer, found);
  const key = [new Date(found.createdAt), found.id];
  const OLDEST_FIRST = { createdAt: 1, id: 1 } as const;
  const neighbour = (sort: PageSort) =>
    cachedFindOne(BlogPost, {
      filter: afterFilter(sort, key),
      sort: { ...sort },
      fields: ['slug', 'title'],
    });
  const [previous, next] = await Promise.all([neighbour(OLDEST_FIRST), neighbour(NEWEST_FIRST)]);
  const pick = (p: { slug: string; title: string } | null) =>
    p ? { slug: p.slug, title: p.title } : null;
  return { post, previous: pick(previous), next: pick(next) };
}

/** What a create or an update writes: every field of the post but its id and timestamps. */
export type BlogPostWrite = Omit<BlogPostDoc, 'id' | 'createdAt' | 'updatedAt'>;

export async function createBlogPost(input: BlogPostWrite): Promise<BlogPostJSON> {
  try {
    const doc = await BlogPost.create({
      ...input,
      publicAt: input.visibility === 'members' ? (input.publicAt ?? null) : null,
    });
    return toBlogPostJSON(doc.toObject());
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new SlugTakenError();
    throw error;
  }
}

export async function updateBlogPost(
  id: number,
  input: Partial<BlogPostWrite>,
): Promise<BlogPostJSON | null> {
  const before = await BlogPost.findOne({ id }).lean();
  if (!before) return null;
  let after;
  try {
    after = await BlogPost.findOneAndUpdate(
      { id },
      { $set: input.visibility === 'public' ? { ...input, publicAt: null } : input },
      { returnDocument: 'after' },
    ).lean();
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new SlugTakenError();
    throw error;
  }
  if (!after) return null;
  if (input.imageUrl && input.imageUrl !== before.imageUrl)
    await deleteUploadedFile(before.imageUrl);
  return toBlogPostJSON(after);
}

export async function deleteBlogPost(id: number): Promise<BlogPostJSON | null> {
  const doc = await BlogPost.findOneAndDelete({ id }).lean();
  if (!doc) return null;
  await deleteUploadedFile(doc.imageUrl);
  return toBlogPostJSON(doc);
}

/** From the collection's metadata (issue 37). */
export const countBlogPosts = () => countRecords(BlogPost);

/** One page of the back office's grid, newest first, optionally one category (issue 37). */
export async function pageBlogPosts(options: {
  category?: string | null;
  page: number;
  perPage: number;
}): Promise<NumberedPage<BlogPostJSON>> {
  const found = await findNumberedPage(BlogPost, {
    filter: options.category ? { category: options.category } : {},
    sort: NEWEST_FIRST,
    page: options.page,
    perPage: options.perPage,
  });
  return { ...found, items: found.items.map(toBlogPostJSON) };
}

// --- the API's list (issue 37, decision 045) ---

/** GET /api/blog[?category=…]: newest first (indexes `{ createdAt: -1, id: -1 }` and by category). */
export const blogPostList = (category?: string): RecordList<BlogPostDoc> => ({
  model: BlogPost,
  filter: category ? { category } : {},
  sort: NEWEST_FIRST,
});

/** A post read through `blogPostList`, as `viewer` may see it. */
export const blogPostViewOf = (viewer: Viewer, doc: BlogPostDoc): BlogPostView =>
  postFor(viewer, toBlogPostJSON(doc));

/** Posts a visitor without an account may read on `today` (the negation of `isMembersOnly`). */
const readableBy = (today: string) => ({
  $or: [
    { visibility: mongoose.trusted({ $ne: 'members' }) },
    { publicAt: mongoose.trusted({ $lte: today }) },
  ],
});

/** How many posts the sitemap lists on `today`. */
export const countPublicBlogPosts = (today: string) => countRecords(BlogPost, readableBy(today));

/** The sitemap's posts, newest first, streamed with only what a sitemap prints. */
export async function* streamPublicBlogPostLinks(
  today: string,
  slice: { skip?: number; limit?: number } = {},
): AsyncGenerator<{ slug: string; createdAt: string }> {
  const docs = streamRecords(BlogPost, {
    filter: readableBy(today),
    sort: NEWEST_FIRST,
    fields: ['slug', 'createdAt'],
    ...slice,
  });
  for await (const p of docs) yield { slug: p.slug, createdAt: iso(p.createdAt) };
}
