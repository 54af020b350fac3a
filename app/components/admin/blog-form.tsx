import { useRef } from 'react';
import { z } from 'zod';

import { ImageField } from '~/components/admin/file-field';
import { UploadForm, type UploadFormProps, useUploadForm } from '~/components/admin/upload-form';
import { VisibilityFields } from '~/components/admin/visibility-fields';
import {
  ConformInputField,
  ConformSelectField,
  ConformTextareaField,
} from '~/components/ui/conform-fields';
import { BlogFieldsSchema, IMAGE_REQUIRED_BLOG, slugify } from '~/schemas/blog';
import { BLOG_CATEGORIES, type BlogPostJSON } from '~/types/entities';

/**
 * On create without JavaScript the slug may be left empty (the server derives it from the
 * title), so the client schema accepts an empty slug only when creating.
 */
const blogFormSchema = (creating: boolean) =>
  (creating
    ? BlogFieldsSchema.extend({
        slug: z.union([z.literal(''), BlogFieldsSchema.shape.slug]).optional(),
      })
    : BlogFieldsSchema
  ).extend({ image: z.unknown().optional() });

/** Create/edit a blog post. The slug follows the title on create until edited by hand. */
export function BlogForm({ post, ...props }: { post?: BlogPostJSON } & UploadFormProps) {
  const slugEdited = useRef(Boolean(post));
  const { form, fields, frame } = useUploadForm(props, {
    id: post ? `blog-form-${post.id}` : 'blog-form-new',
    schema: blogFormSchema(!post),
    defaultValue: {
      title: post?.title ?? '',
      slug: post?.slug ?? '',
      content: post?.content ?? '',
      excerpt: post?.excerpt ?? '',
      category: post?.category ?? 'NEWS',
      visibility: post?.visibility ?? 'public',
      publicAt: post?.publicAt ?? '',
    },
    requiredFiles: { required: !post, names: ['image'], message: IMAGE_REQUIRED_BLOG },
  });

  return (
    <UploadForm
      {...frame}
      submit={
        post
          ? { label: 'Update Post', pendingLabel: 'Updating...' }
          : { label: 'Publish Post', pendingLabel: 'Publishing...' }
      }
    >
      <ConformInputField
        label="Title"
        field={fields.title}
        onChange={(event) => {
          if (slugEdited.current) return;
          form.update({ name: fields.slug.name, value: slugify(event.currentTarget.value) });
        }}
      />
      <ConformInputField
        label="Slug"
        field={fields.slug}
        hint={
          post
            ? 'Used in the address: /blog/your-slug'
            : 'Used in the address: /blog/your-slug. Filled in from the title unless you change it.'
        }
        onInput={() => {
          slugEdited.current = true;
        }}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformSelectField label="Category" field={fields.category}>
          {BLOG_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c.charAt(0) + c.slice(1).toLowerCase()}
            </option>
          ))}
        </ConformSelectField>
        <ImageField
          label={post ? 'Featured image (leave empty to keep)' : 'Featured image'}
          formId={form.id}
          errors={fields.image.errors}
        />
      </div>
      {post ? (
        <img src={post.imageUrl} alt="" className="max-h-32 rounded-md object-contain" />
      ) : null}
      <ConformTextareaField
        label="Excerpt"
        field={fields.excerpt}
        hint="Max 200 characters"
        rows={2}
      />
      <ConformTextareaField label="Content" field={fields.content} rows={10} />
      <VisibilityFields visibility={fields.visibility} publicAt={fields.publicAt} />
    </UploadForm>
  );
}
