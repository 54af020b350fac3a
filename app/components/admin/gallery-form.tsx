import { z } from 'zod';

import { ImageField } from '~/components/admin/file-field';
import { UploadForm, type UploadFormProps, useUploadForm } from '~/components/admin/upload-form';
import { ConformInputField, ConformTextareaField } from '~/components/ui/conform-fields';
import { GalleryFieldsSchema, IMAGE_REQUIRED_GALLERY } from '~/schemas/gallery';
import type { GalleryImageJSON } from '~/types/entities';

const GalleryFormSchema = GalleryFieldsSchema.extend({ image: z.unknown().optional() });

/** Add/edit a gallery image: title, optional description, the image file (required on create). */
export function GalleryForm({ image, ...props }: { image?: GalleryImageJSON } & UploadFormProps) {
  const { form, fields, frame } = useUploadForm(props, {
    id: image ? `gallery-form-${image.id}` : 'gallery-form-new',
    schema: GalleryFormSchema,
    defaultValue: { title: image?.title ?? '', description: image?.description ?? '' },
    requiredFiles: { required: !image, names: ['image'], message: IMAGE_REQUIRED_GALLERY },
  });
  return (
    <UploadForm
      {...frame}
      submit={
        image
          ? { label: 'Update Image', pendingLabel: 'Updating...' }
          : { label: 'Add Image', pendingLabel: 'Adding...' }
      }
    >
      <ConformInputField label="Title" field={fields.title} />
      <ConformTextareaField label="Description (optional)" field={fields.description} rows={3} />
      <ImageField
        label={image ? 'Image (leave empty to keep the current one)' : 'Image'}
        formId={form.id}
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
