import { publishItem } from '~/fediverse/publication.server';
import {
  createBlogPost,
  deleteBlogPost,
  getBlogPost,
  SlugTakenError,
  updateBlogPost,
} from '~/models/blog-post.server';
import { type BlogFields, BlogFieldsSchema, IMAGE_REQUIRED_BLOG, slugify } from '~/schemas/blog';
import type { BlogPostJSON } from '~/types/entities';
import type { TextFields } from '~/types/save-flow';

import {
  type ImageEntityForm,
  type ImageUploadFlow,
  uploadImageEntity,
} from './upload-flow.server';

/**
 * Saving a blog post, for the admin form (`submitBlogForm`) and /api/admin/blog
 * (`saveBlogPost`). The flow itself is app/services/upload-flow.server.ts.
 */

const SLUG_TAKEN_MESSAGE = 'Another post already uses this slug';

/** The server's fallback slug for a post created without one (no JavaScript). */
export const slugFromTitle = (title: string) =>
  slugify(title.trim())
    .replace(/_/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');

const withSlugFromTitle = (fields: TextFields): TextFields =>
  (fields.slug ?? '').trim() === ''
    ? { ...fields, slug: slugFromTitle(fields.title ?? '') }
    : fields;

const BLOG_FLOW: ImageUploadFlow<BlogFields, BlogPostJSON> = {
  schema: BlogFieldsSchema,
  load: getBlogPost,
  save: async ({ value, fields, files, existing, keepUnsent }) => {
    // The API's PUT leaves the fields it was not sent alone; the form writes every field.
    const writes = (name: string) => !keepUnsent || Object.hasOwn(fields, name);
    const { category, visibility, publicAt, ...rest } = value;
    const saved = !existing
      ? await createBlogPost({ ...value, imageUrl: files.image.url })
      : await updateBlogPost(existing.id, {
          ...rest,
          ...(writes('category') ? { category } : {}),
          ...(writes('visibility') ? { visibility } : {}),
          ...(writes('publicAt') ? { publicAt: publicAt ?? null } : {}),
          ...(files.image ? { imageUrl: files.image.url } : {}),
        });
    // Followers on the fediverse get it once it is public (decision 054).
    if (saved) void publishItem('post', saved.id);
    return saved;
  },
  conflict: (error) =>
    error instanceof SlugTakenError ? { field: 'slug', message: error.message } : null,
};

const FORM: ImageEntityForm<BlogPostJSON> = {
  failed: { create: 'Failed to publish post', update: 'Failed to update post' },
  notFound: 'Post not found',
  missingFiles: IMAGE_REQUIRED_BLOG,
  conflict: SLUG_TAKEN_MESSAGE,
  // Without JavaScript nothing fills the slug: an empty one on create comes from the title.
  completeOnCreate: withSlugFromTitle,
  saved: {
    create: (p) => ({ title: 'Post published', description: `"${p.title}" is now live.` }),
    update: (p) => ({ title: 'Post updated', description: `"${p.title}" was updated.` }),
  },
};

/**
 * Publish or edit a blog post from a multipart request (the image is required on create; a
 * slug another post has is a `conflict` on `slug`, an error on the form's slug field):
 * `saveBlogPost` for /api/admin/blog, `submitBlogForm` and `blogFormAction` (its routes) for the admin's dialogs.
 */
export const {
  save: saveBlogPost,
  submitForm: submitBlogForm,
  formAction: blogFormAction,
  editLoader: blogEditLoader,
} = uploadImageEntity(BLOG_FLOW, FORM);

/** Delete a post (the admin page and DELETE /api/admin/blog/{id}); followers get a Delete. */
export async function removeBlogPost(id: number): Promise<BlogPostJSON | null> {
  const removed = await deleteBlogPost(id);
  if (removed) void publishItem('post', id);
  return removed;
}
