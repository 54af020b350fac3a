import { z } from 'zod';

import { BLOG_CATEGORIES } from '~/types/entities';

import { LIMITS, requiredText, visibilityFields } from './common';

/** Shown (toast and form alert) when a new post is submitted without its featured image. */
export const IMAGE_REQUIRED_BLOG = {
  title: 'Image is required',
  description: 'Please select a featured image for your blog post',
} as const;

export const SLUG_MESSAGE = 'Slug must contain only lowercase letters, numbers, and hyphens';

/** The slug filled from the title on create: lowercase, punctuation dropped, spaces to hyphens. */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/\s+/g, '-');
}

export const BlogFieldsSchema = z.object({
  title: requiredText('Title is required', LIMITS.title),
  slug: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ required_error: 'String must contain at least 3 character(s)' })
      .min(3, 'String must contain at least 3 character(s)')
      .max(120, 'Must be at most 120 characters')
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, SLUG_MESSAGE),
  ),
  content: requiredText('Content is required', LIMITS.blogContent),
  excerpt: requiredText('Excerpt is required', LIMITS.excerpt),
  category: z.enum(BLOG_CATEGORIES).default('NEWS'),
  ...visibilityFields,
});
export type BlogFields = z.infer<typeof BlogFieldsSchema>;
