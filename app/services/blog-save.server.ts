import {
  createBlogPost,
  getBlogPost,
  SlugTakenError,
  updateBlogPost,
} from '~/models/blog-post.server';
import { type BlogFields, BlogFieldsSchema } from '~/schemas/blog';
import type { BlogPostJSON } from '~/types/entities';

import {
  ONE_IMAGE,
  type SaveClient,
  type SaveResult,
  type SaveTarget,
  saveUpload,
  type UploadFlow,
} from './upload-save.server';

export const BLOG_FLOW: UploadFlow<BlogFields, BlogPostJSON> = {
  ...ONE_IMAGE,
  schema: BlogFieldsSchema,
  load: getBlogPost,
  save: ({ value, fields, files, existing, keepUnsent }) => {
    if (!existing) return createBlogPost({ ...value, imageUrl: files.image.url });
    // The API's PUT leaves the fields it was not sent alone; the form writes every field.
    const writes = (name: string) => !keepUnsent || Object.hasOwn(fields, name);
    const { category, visibility, publicAt, ...rest } = value;
    return updateBlogPost(existing.id, {
      ...rest,
      ...(writes('category') ? { category } : {}),
      ...(writes('visibility') ? { visibility } : {}),
      ...(writes('publicAt') ? { publicAt: publicAt ?? null } : {}),
      ...(files.image ? { imageUrl: files.image.url } : {}),
    });
  },
  conflict: (error) =>
    error instanceof SlugTakenError ? { field: 'slug', message: error.message } : null,
};

/**
 * Publish or edit a blog post from a multipart request (the image is required on create);
 * a slug another post has is a `conflict` on `slug`.
 */
export const saveBlogPost = <S>(
  request: Request,
  target: SaveTarget,
  client: SaveClient<S>,
): Promise<SaveResult<BlogPostJSON, S>> => saveUpload(request, target, BLOG_FLOW, client);
