import { getInputProps, getTextareaProps, type SubmissionResult } from '@conform-to/react';
import { z } from 'zod';

import { FileField, IMAGE_ACCEPT, IMAGE_HINT } from '~/components/admin/file-field';
import { useRequiredFiles } from '~/components/admin/required-files';
import { UploadForm, useAdminForm } from '~/components/admin/upload-form';
import { InputField, TextareaField } from '~/components/ui/field';
import { GalleryFieldsSchema, IMAGE_REQUIRED_GALLERY } from '~/schemas/gallery';
import type { GalleryImageJSON } from '~/types/entities';

const GalleryFormSchema = GalleryFieldsSchema.extend({ image: z.unknown().optional() });

/** Add/edit a gallery image: title, optional description, the image file (required on create). */
export function GalleryForm({
  image,
  lastResult,
  alertTitle,
  closeTo,
}: {
  image?: GalleryImageJSON;
  lastResult?: SubmissionResult<string[]>;
  alertTitle?: string;
  closeTo: string;
}) {
  const files = useRequiredFiles({
    required: !image,
    names: ['image'],
    message: IMAGE_REQUIRED_GALLERY,
  });
  const [form, fields] = useAdminForm({
    id: image ? `gallery-form-${image.id}` : 'gallery-form-new',
    lastResult,
    schema: GalleryFormSchema,
    defaultValue: { title: image?.title ?? '', description: image?.description ?? '' },
    onSubmit: (event, { formData }) => files.check(event, formData),
  });
  return (
    <UploadForm
      form={form}
      files={files}
      alertTitle={alertTitle}
      closeTo={closeTo}
      submit={
        image
          ? { label: 'Update Image', pendingLabel: 'Updating...' }
          : { label: 'Add Image', pendingLabel: 'Adding...' }
      }
    >
      <InputField
        label="Title"
        field={fields.title}
        inputProps={getInputProps(fields.title, { type: 'text' })}
      />
      <TextareaField
        label="Description (optional)"
        field={fields.description}
        textareaProps={{ ...getTextareaProps(fields.description), rows: 3 }}
      />
      <FileField
        label={image ? 'Image (leave empty to keep the current one)' : 'Image'}
        id={`${form.id}-image`}
        name="image"
        accept={IMAGE_ACCEPT}
        hint={IMAGE_HINT}
        errors={fields.image.errors}
        current={
          image ? (
            <img
              src={image.imageUrl}
              alt={`Current image: ${image.title}`}
              className="max-h-40 rounded-md object-contain"
            />
          ) : null
        }
      />
    </UploadForm>
  );
}
