import { type FieldMetadata, getInputProps } from '@conform-to/react';

import { InputField } from '~/components/ui/field';

type PasswordFieldProps = {
  /** The visible label, e.g. "Password" or "Confirm new password". */
  label: React.ReactNode;
  /** The conform field: gives the name, the id and the errors. */
  field: FieldMetadata<string>;
  /** `current-password` to sign in with, `new-password` to choose one. */
  autoComplete: 'current-password' | 'new-password';
  hint?: React.ReactNode;
};

/**
 * A labelled password input (login, register, change password), wired to its conform
 * field: the label, hint and errors come from {@link InputField}.
 */
export function PasswordField({ label, field, autoComplete, hint }: PasswordFieldProps) {
  return (
    <InputField
      label={label}
      field={field}
      hint={hint}
      inputProps={{ ...getInputProps(field, { type: 'password' }), autoComplete }}
    />
  );
}
