import { type FieldMetadata, getInputProps, getTextareaProps } from '@conform-to/react';

import { InputField, TextareaField } from '~/components/ui/field';

/** The home page hero's title and text, and the footer text. */
export function SiteTextFields({
  heroTitle,
  heroText,
  footerText,
}: {
  heroTitle: FieldMetadata<string>;
  heroText: FieldMetadata<string>;
  footerText: FieldMetadata<string>;
}) {
  return (
    <>
      <InputField
        label="Hero title"
        field={heroTitle}
        inputProps={getInputProps(heroTitle, { type: 'text' })}
      />
      <TextareaField
        label="Hero text"
        field={heroText}
        textareaProps={{ ...getTextareaProps(heroText), rows: 3 }}
      />
      <TextareaField
        label="Footer text"
        field={footerText}
        textareaProps={{ ...getTextareaProps(footerText), rows: 3 }}
      />
    </>
  );
}
