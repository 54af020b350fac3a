import type { FieldMetadata } from '@conform-to/react';

import { ConformInputField, ConformSelectField } from '~/components/ui/conform-fields';
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
      <ConformSelectField label="Visibility" field={visibility}>
        <option value="public">Public: everyone</option>
        <option value="members">Members only: logged-in accounts</option>
      </ConformSelectField>
      <ConformInputField
        label="Public on (optional)"
        field={publicAt}
        hint="Early access: members-only until this day, then public for everyone (New York time). Leave empty to keep it members-only."
        type="date"
      />
    </div>
  );
}
