import { getInputProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import { Field, inputClass } from '~/components/ui/field';

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
      <Field label="Hero title" errors={heroTitle.errors} id={heroTitle.id}>
        {(a11y) => (
          <input
            {...getInputProps(heroTitle, { type: 'text' })}
            {...a11y}
            key={heroTitle.key}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="Hero text" errors={heroText.errors} id={heroText.id}>
        {(a11y) => (
          <textarea
            {...getTextareaProps(heroText)}
            {...a11y}
            key={heroText.key}
            rows={3}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="Footer text" errors={footerText.errors} id={footerText.id}>
        {(a11y) => (
          <textarea
            {...getTextareaProps(footerText)}
            {...a11y}
            key={footerText.key}
            rows={3}
            className={inputClass}
          />
        )}
      </Field>
    </>
  );
}
