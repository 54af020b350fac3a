import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react';
import { Field, inputClass } from '~/components/ui/field';
import type { Visibility } from '~/types/entities';

/**
 * Who may play the track or read the post (decision 017): a select and a date field, plain
 * form controls that work without JavaScript. The date only counts for members-only items.
 */
export function VisibilityFields<Form extends Record<string, unknown>>({
  visibility,
  publicAt,
}: {
  visibility: FieldMetadata<Visibility | undefined, Form, string[]>;
  publicAt: FieldMetadata<unknown, Form, string[]>;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Visibility" errors={visibility.errors} id={visibility.id}>
        {(a11y) => (
          <select {...getSelectProps(visibility)} {...a11y} className={inputClass}>
            <option value="public">Public: everyone</option>
            <option value="members">Members only: logged-in accounts</option>
          </select>
        )}
      </Field>
      <Field
        label="Public on (optional)"
        errors={publicAt.errors}
        id={publicAt.id}
        hint="Early access: members-only until this day, then public for everyone (New York time). Leave empty to keep it members-only."
      >
        {(a11y) => (
          <input {...getInputProps(publicAt, { type: 'date' })} {...a11y} className={inputClass} />
        )}
      </Field>
    </div>
  );
}
