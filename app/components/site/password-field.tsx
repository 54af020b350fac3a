import { type FieldMetadata, getInputProps } from '@conform-to/react';

import { InputField } from '~/components/ui/field';

type PasswordFieldProps = {
  /** The visible label, e.g. "Password" or "Confirm new password". */
  label: React.ReactNode;
  /** The conform field: gives the name, the id and the errors. */
  field: FieldMetadata<string>;
  /** `current-password` (the default) to sign in with, `new-password` to choose one. */
  autoComplete?: 'current-password' | 'new-password';
  hint?: React.ReactNode;
};

/**
 * A labelled password input (login, register, change password), wired to its conform
 * field: the label, hint and errors come from {@link InputField}.
 */
export function PasswordField({
  label,
  field,
  autoComplete = 'current-password',
  hint,
}: PasswordFieldProps) {
  return (
    <InputField
      label={label}
      field={field}
      hint={hint}
      inputProps={{ ...getInputProps(field, { type: 'password' }), autoComplete }}
    />
  );
}

/**
 * A new password and the same typed again (register, change password): both `new-password`,
 * the first with the rule the schema checks (`newPasswordField`).
 */
export function NewPasswordFields({
  labels: [label, confirmLabel],
  fields: [password, confirm],
}: {
  labels: [string, string];
  fields: [FieldMetadata<string>, FieldMetadata<string>];
}) {
  return (
    <>
      <PasswordField
        label={label}
        field={password}
        autoComplete="new-password"
        hint="At least 6 characters"
      />
      <PasswordField label={confirmLabel} field={confirm} autoComplete="new-password" />
    </>
  );
}
