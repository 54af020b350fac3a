import { parseWithZod } from '@conform-to/zod';
import { data } from '@remix-run/node';
import { IMAGE_REQUIRED_BLOG } from '~/components/admin/blog-form';
import { SlugTakenError, createBlogPost, updateBlogPost } from '~/models/blog-post.server';
import { BlogFieldsSchema, slugify } from '~/schemas/blog';
import { IMAGE_FILE_MESSAGE } from '~/schemas/gallery';
import type { BlogPostJSON } from '~/types/entities';
import { imageFieldErrors } from './gallery-form.server';
import { prepareUploadedImage } from './image-derivatives.server';
import { redirectWithToast } from './toast.server';
import {
  errorMessage,
  errorToast,
  readUploadForm,
  type FormActionResult,
} from './upload-form.server';
import { discardUploads } from './uploads.server';

export const SLUG_TAKEN_MESSAGE = 'Another post already uses this slug';

/** The server's fallback slug for a post created without one (no JavaScript). */
export const slugFromTitle = (title: string) =>
  slugify(title.trim())
    .replace(/_/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * The create/edit blog post action (admin already checked): stream the image, validate
 * (an empty slug on create is derived from the title), save, redirect with a toast. A
 * taken slug is a field error; on any failure the new image is deleted.
 */
export async function submitBlogForm(
  request: Request,
  existing: BlogPostJSON | null,
  listUrl: string,
) {
  const failTitle = existing ? 'Failed to update post' : 'Failed to publish post';
  const upload = await readUploadForm(request, { image: { kind: 'image' } });
  if (!upload.ok) {
    return data<FormActionResult>(
      {
        result: { status: 'error', error: { '': [upload.message] } },
        alertTitle: failTitle,
        toast: errorToast(failTitle, upload.message),
      },
      { status: upload.status },
    );
  }
  const { formData, files, fileErrors } = upload;
  const slugInput = String(formData.get('slug') ?? '').trim();
  if (!existing && slugInput === '')
    formData.set('slug', slugFromTitle(String(formData.get('title') ?? '')));
  const submission = parseWithZod(formData, { schema: BlogFieldsSchema });
  const imageErrors = imageFieldErrors(fileErrors.image);
  const missing = !existing && !files.image && !imageErrors;

  const reply = async (
    fieldErrors: Record<string, string[]>,
    toastDescription: string,
    options: { missing?: boolean; formErrors?: string[] } = {},
  ) => {
    await discardUploads(files);
    return data<FormActionResult>(
      {
        result: submission.reply({
          fieldErrors,
          formErrors: options.missing ? [IMAGE_REQUIRED_BLOG.description] : options.formErrors,
        }),
        alertTitle: options.missing ? IMAGE_REQUIRED_BLOG.title : failTitle,
        toast: options.missing
          ? errorToast(IMAGE_REQUIRED_BLOG.title, IMAGE_REQUIRED_BLOG.description)
          : errorToast(failTitle, toastDescription),
      },
      { status: 400 },
    );
  };

  if (submission.status !== 'success' || imageErrors || missing) {
    const fieldErrors: Record<string, string[]> = {};
    if (imageErrors) fieldErrors.image = imageErrors;
    if (missing) fieldErrors.image = [IMAGE_FILE_MESSAGE];
    const first =
      imageErrors?.[0] ??
      Object.values(submission.status === 'error' ? (submission.error ?? {}) : {}).flat()[0];
    return reply(fieldErrors, first ?? 'Please check the form', { missing });
  }

  let saved: BlogPostJSON | null;
  try {
    const write = { ...submission.value, ...(files.image ? { imageUrl: files.image.url } : {}) };
    saved = existing
      ? await updateBlogPost(existing.id, write)
      : await createBlogPost({ ...write, imageUrl: files.image.url });
    if (!saved) throw new Error('Post not found');
  } catch (error) {
    if (error instanceof SlugTakenError)
      return reply({ slug: [SLUG_TAKEN_MESSAGE] }, SLUG_TAKEN_MESSAGE);
    const message = errorMessage(error);
    return reply({}, message, { formErrors: [message] });
  }
  if (files.image) await prepareUploadedImage(files.image.path).catch(() => undefined);
  return redirectWithToast(listUrl, {
    type: 'success',
    title: existing ? 'Post updated' : 'Post published',
    description: existing ? `"${saved.title}" was updated.` : `"${saved.title}" is now live.`,
  });
}
