import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
} from '@conform-to/react';
import { useRef } from 'react';
import { z } from 'zod';

import { FileField, IMAGE_ACCEPT, IMAGE_HINT } from '~/components/admin/file-field';
import { useRequiredFiles } from '~/components/admin/required-files';
import { UploadForm, useAdminForm } from '~/components/admin/upload-form';
import { VisibilityFields } from '~/components/admin/visibility-fields';
import { InputField, SelectField, TextareaField } from '~/components/ui/field';
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
export function BlogForm({
  post,
  lastResult,
  alertTitle,
  closeTo,
}: {
  post?: BlogPostJSON;
  lastResult?: SubmissionResult<string[]>;
  alertTitle?: string;
  closeTo: string;
}) {
  const files = useRequiredFiles({
    required: !post,
    names: ['image'],
    message: IMAGE_REQUIRED_BLOG,
  });
  const slugEdited = useRef(Boolean(post));
  const schema = blogFormSchema(!post);
  const [form, fields] = useAdminForm({
    id: post ? `blog-form-${post.id}` : 'blog-form-new',
    lastResult,
    schema,
    defaultValue: {
      title: post?.title ?? '',
      slug: post?.slug ?? '',
      content: post?.content ?? '',
      excerpt: post?.excerpt ?? '',
      category: post?.category ?? 'NEWS',
      visibility: post?.visibility ?? 'public',
      publicAt: post?.publicAt ?? '',
    },
    onSubmit: (event, { formData }) => files.check(event, formData),
  });

  return (
    <UploadForm
      form={form}
      files={files}
      alertTitle={alertTitle}
      closeTo={closeTo}
      submit={
        post
          ? { label: 'Update Post', pendingLabel: 'Updating...' }
          : { label: 'Publish Post', pendingLabel: 'Publishing...' }
      }
    >
      <InputField
        label="Title"
        field={fields.title}
        inputProps={{
          ...getInputProps(fields.title, { type: 'text' }),
          onChange: (event) => {
            if (slugEdited.current) return;
            form.update({ name: fields.slug.name, value: slugify(event.currentTarget.value) });
          },
        }}
      />
      <InputField
        label="Slug"
        field={fields.slug}
        hint={
          post
            ? 'Used in the address: /blog/your-slug'
            : 'Used in the address: /blog/your-slug. Filled in from the title unless you change it.'
        }
        inputProps={{
          ...getInputProps(fields.slug, { type: 'text' }),
          onInput: () => {
            slugEdited.current = true;
          },
        }}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Category"
          field={fields.category}
          selectProps={getSelectProps(fields.category)}
        >
          {BLOG_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c.charAt(0) + c.slice(1).toLowerCase()}
            </option>
          ))}
        </SelectField>
        <FileField
          label={post ? 'Featured image (leave empty to keep)' : 'Featured image'}
          id={`${form.id}-image`}
          name="image"
          accept={IMAGE_ACCEPT}
          hint={IMAGE_HINT}
          errors={fields.image.errors}
        />
      </div>
      {post ? (
        <img src={post.imageUrl} alt="" className="max-h-32 rounded-md object-contain" />
      ) : null}
      <TextareaField
        label="Excerpt"
        field={fields.excerpt}
        hint="Max 200 characters"
        textareaProps={{ ...getTextareaProps(fields.excerpt), rows: 2 }}
      />
      <TextareaField
        label="Content"
        field={fields.content}
        textareaProps={{ ...getTextareaProps(fields.content), rows: 10 }}
      />
      <VisibilityFields visibility={fields.visibility} publicAt={fields.publicAt} />
    </UploadForm>
  );
}
