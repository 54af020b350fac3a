import {
  type FieldMetadata,
  getInputProps,
  getSelectProps,
  getTextareaProps,
} from '@conform-to/react';

import { InputField, SelectField, TextareaField } from './field';

/*
 * The labelled controls of field.tsx bound to a conform field, for the forms set up with
 * conform (the admin forms, sign-in and register): the control's own attributes are conform's
 * (`getInputProps` with the `type`, `getTextareaProps`, `getSelectProps`: name, default value,
 * constraints), the other props (`placeholder`, `rows`, `autoComplete`, an event handler, a
 * `className` for the control) follow them. field.tsx adds the label, hint, errors and aria
 * wiring. A form without conform uses field.tsx's controls directly.
 */

type Bound<Schema> = {
  label: React.ReactNode;
  /** The conform field: its name, id, constraints and errors. */
  field: FieldMetadata<Schema>;
  hint?: React.ReactNode;
};

/** The input types a labelled text-like input takes (a checkbox or radio is laid out apart). */
type TextInputType = 'text' | 'email' | 'url' | 'number' | 'date' | 'password' | 'search' | 'tel';

type ConformInputFieldProps<Schema> = Bound<Schema> &
  Omit<React.ComponentProps<'input'>, 'type'> & { type?: TextInputType };

/** A labelled input bound to its conform field (`type` 'text' unless given). */
export function ConformInputField<Schema>({
  label,
  field,
  hint,
  type = 'text',
  ...control
}: ConformInputFieldProps<Schema>) {
  return (
    <InputField
      label={label}
      field={field}
      hint={hint}
      inputProps={{ ...getInputProps(field, { type }), ...control }}
    />
  );
}

/** A labelled textarea bound to its conform field. */
export function ConformTextareaField<Schema>({
  label,
  field,
  hint,
  ...control
}: Bound<Schema> & React.ComponentProps<'textarea'>) {
  return (
    <TextareaField
      label={label}
      field={field}
      hint={hint}
      textareaProps={{ ...getTextareaProps(field), ...control }}
    />
  );
}

/** A labelled select bound to its conform field; its children are the `<option>`s. */
export function ConformSelectField<Schema>({
  label,
  field,
  hint,
  children,
}: Bound<Schema> & { children: React.ReactNode }) {
  return (
    <SelectField label={label} field={field} hint={hint} selectProps={getSelectProps(field)}>
      {children}
    </SelectField>
  );
}
