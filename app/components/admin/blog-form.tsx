import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, Link } from '@remix-run/react';
import { useRef } from 'react';
import { z } from 'zod';
import { FileField, IMAGE_ACCEPT, IMAGE_HINT } from '~/components/admin/file-field';
import { usePostPending } from '~/components/admin/use-post-pending';
import { VisibilityFields } from '~/components/admin/visibility-fields';
import { FormAlert } from '~/components/admin/form-alert';
import { useRequiredFiles } from '~/components/admin/required-files';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import { Field, inputClass } from '~/components/ui/field';
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
  const pending = usePostPending();
  const files = useRequiredFiles({
    required: !post,
    names: ['image'],
    message: IMAGE_REQUIRED_BLOG,
  });
  const slugEdited = useRef(Boolean(post));
  const schema = blogFormSchema(!post);
  const [form, fields] = useForm({
    id: post ? `blog-form-${post.id}` : 'blog-form-new',
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      title: post?.title ?? '',
      slug: post?.slug ?? '',
      content: post?.content ?? '',
      excerpt: post?.excerpt ?? '',
      category: post?.category ?? 'NEWS',
      visibility: post?.visibility ?? 'public',
      publicAt: post?.publicAt ?? '',
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit: (event, { formData }) => files.check(event, formData),
  });

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      onChange={files.clear}
      className="space-y-4"
    >
      <FormAlert
        id={form.errorId}
        {...files.alert(alertTitle ?? 'Please check the form', form.errors)}
      />
      <Field label="Title" errors={fields.title.errors} id={fields.title.id}>
        {(a11y) => (
          <input
            {...getInputProps(fields.title, { type: 'text' })}
            {...a11y}
            onChange={(event) => {
              if (slugEdited.current) return;
              form.update({ name: fields.slug.name, value: slugify(event.currentTarget.value) });
            }}
            className={inputClass}
          />
        )}
      </Field>
      <Field
        label="Slug"
        errors={fields.slug.errors}
        id={fields.slug.id}
        hint={
          post
            ? 'Used in the address: /blog/your-slug'
            : 'Used in the address: /blog/your-slug. Filled in from the title unless you change it.'
        }
      >
        {(a11y) => (
          <input
            {...getInputProps(fields.slug, { type: 'text' })}
            {...a11y}
            onInput={() => {
              slugEdited.current = true;
            }}
            className={inputClass}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Category" errors={fields.category.errors} id={fields.category.id}>
          {(a11y) => (
            <select {...getSelectProps(fields.category)} {...a11y} className={inputClass}>
              {BLOG_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c.charAt(0) + c.slice(1).toLowerCase()}
                </option>
              ))}
            </select>
          )}
        </Field>
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
      <Field
        label="Excerpt"
        errors={fields.excerpt.errors}
        id={fields.excerpt.id}
        hint="Max 200 characters"
      >
        {(a11y) => (
          <textarea
            {...getTextareaProps(fields.excerpt)}
            {...a11y}
            rows={2}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="Content" errors={fields.content.errors} id={fields.content.id}>
        {(a11y) => (
          <textarea
            {...getTextareaProps(fields.content)}
            {...a11y}
            rows={10}
            className={inputClass}
          />
        )}
      </Field>
      <VisibilityFields visibility={fields.visibility} publicAt={fields.publicAt} />
      <div className="flex flex-wrap justify-end gap-2 pt-2">
        <Link to={closeTo} preventScrollReset className={buttonClass('outline')}>
          Cancel
        </Link>
        <SubmitButton pending={pending} pendingLabel={post ? 'Updating...' : 'Publishing...'}>
          {post ? 'Update Post' : 'Publish Post'}
        </SubmitButton>
      </div>
    </Form>
  );
}
