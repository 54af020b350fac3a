import { type FieldMetadata, getSelectProps } from '@conform-to/react';

import { SelectField } from '~/components/ui/field';
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
    <SelectField
      label={label}
      field={field}
      selectProps={{
        ...getSelectProps(field),
        onChange: (event) => onFontChange(event.currentTarget.value),
      }}
    >
      {FONT_CHOICES.map((font) => (
        <option key={font} value={font}>
          {font}
        </option>
      ))}
    </SelectField>
  );
}
