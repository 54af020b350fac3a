import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';

import { PasswordField } from '~/components/site/password-field';
import { SubmitButton } from '~/components/ui/button';
import { ConformInputField } from '~/components/ui/conform-fields';
import { FormError } from '~/components/ui/field';
import { RegisterSchema } from '~/schemas/auth';

import { usePendingIntent } from './use-pending-intent';

/** Username, password and its confirmation; posts `intent=register` to the page's action. */
export function RegisterForm({
  redirectTo,
  lastResult,
}: {
  redirectTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = usePendingIntent('register');
  const [form, fields] = useForm({
    id: 'register-form',
    lastResult,
    constraint: getZodConstraint(RegisterSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError id={form.errorId} errors={form.errors} />
      <ConformInputField
        label="Username"
        field={fields.username}
        hint="At least 3 characters"
        autoComplete="username"
      />
      <PasswordField
        label="Password"
        field={fields.password}
        autoComplete="new-password"
        hint="At least 6 characters"
      />
      <PasswordField
        label="Confirm Password"
        field={fields.confirmPassword}
        autoComplete="new-password"
      />
      <SubmitButton pending={pending} pendingLabel="Creating account..." className="w-full">
        Create Account
      </SubmitButton>
    </Form>
  );
}
