import { getSelectProps, type FieldMetadata } from '@conform-to/react';
import { Field, inputClass } from '~/components/ui/field';
import { FONT_CHOICES, type FontChoice } from '~/types/entities';

/** One of the site's fonts, chosen from the bundled ones. */
export function FontSelect({
  label,
  field,
  onFontChange,
}: {
  label: string;
  field: FieldMetadata<FontChoice>;
  onFontChange: (font: string) => void;
}) {
  return (
    <Field label={label} errors={field.errors} id={field.id}>
      {(a11y) => (
        <select
          {...getSelectProps(field)}
          {...a11y}
          key={field.key}
          onChange={(event) => onFontChange(event.currentTarget.value)}
          className={inputClass}
        >
          {FONT_CHOICES.map((font) => (
            <option key={font} value={font}>
              {font}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
