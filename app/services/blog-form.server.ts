import { IMAGE_REQUIRED_BLOG } from '~/schemas/blog';
import { slugify } from '~/schemas/blog';
import { saveBlogPost } from '~/services/blog-save.server';
import type { SaveTarget, TextFields } from '~/services/upload-save.server';
import type { BlogPostJSON } from '~/types/entities';

import { imageFieldErrors } from './gallery-form.server';
import { answerForm, FORM_CLIENT, type FormTexts, withFields } from './upload-form.server';

export const SLUG_TAKEN_MESSAGE = 'Another post already uses this slug';

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

const TEXTS: FormTexts<BlogPostJSON> = {
  failed: { create: 'Failed to publish post', update: 'Failed to update post' },
  notFound: 'Post not found',
  missingFiles: IMAGE_REQUIRED_BLOG,
  fileErrors: imageFieldErrors,
  conflict: SLUG_TAKEN_MESSAGE,
  saved: {
    create: (p) => ({ title: 'Post published', description: `"${p.title}" is now live.` }),
    update: (p) => ({ title: 'Post updated', description: `"${p.title}" was updated.` }),
  },
};

/**
 * The create/edit blog post action (admin already checked): the shared save flow (an empty
 * slug on create is derived from the title), then a redirect with a toast, or the form with
 * its errors (a taken slug is an error on the slug field).
 */
export async function submitBlogForm(request: Request, target: SaveTarget, listUrl: string) {
  const client =
    target.mode === 'create' ? withFields(FORM_CLIENT, withSlugFromTitle) : FORM_CLIENT;
  return answerForm(await saveBlogPost(request, target, client), target, TEXTS, listUrl);
}
