import { type FieldMetadata, getInputProps } from '@conform-to/react';
import { useState } from 'react';

import { InputField } from '~/components/ui/field';
import { colourToHex } from '~/theme/colour';

/**
 * The primary colour: a colour picker and the text field the form submits, kept in step.
 * The picker is posted as `primaryPicker`; the action prefers a changed text value.
 */
export function PrimaryColourField({
  field,
  initial,
  onColourChange,
}: {
  field: FieldMetadata<string>;
  /** The saved colour, the picker's first value. */
  initial: string;
  /** The colour as typed or picked, for the live preview. */
  onColourChange: (colour: string) => void;
}) {
  const [picker, setPicker] = useState(colourToHex(initial));
  return (
    <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start">
      <div className="space-y-1.5">
        <label htmlFor="primary-picker" className="block text-sm font-medium">
          Colour picker
        </label>
        <input
          id="primary-picker"
          type="color"
          name="primaryPicker"
          value={picker}
          onChange={(event) => {
            const hex = event.currentTarget.value;
            setPicker(hex);
            onColourChange(hex);
            const text = event.currentTarget.form?.elements.namedItem('primary');
            if (text instanceof HTMLInputElement) text.value = hex;
          }}
          className="h-10 w-16 cursor-pointer rounded-md border border-input bg-background p-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
      </div>
      <InputField
        label="Primary colour"
        hint="An hsl() value such as hsl(347, 100%, 56%) or a hex colour such as #ff1f4f."
        field={field}
        inputProps={{
          ...getInputProps(field, { type: 'text' }),
          pattern: undefined,
          spellCheck: false,
          onChange: (event) => {
            const value = event.currentTarget.value;
            onColourChange(value);
            if (/^(hsl\(.*\)|#[0-9a-f]{3}([0-9a-f]{3})?)$/i.test(value.trim())) {
              setPicker(colourToHex(value));
            }
          },
          className: 'font-mono',
        }}
      />
    </div>
  );
}
