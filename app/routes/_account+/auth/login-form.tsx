import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';

import { PasswordField } from '~/components/site/password-field';
import { SubmitButton } from '~/components/ui/button';
import { FormError, InputField } from '~/components/ui/field';
import { LoginSchema } from '~/schemas/auth';

import { usePendingIntent } from './use-pending-intent';

/** Username and password; posts `intent=login` to the page's action. */
export function LoginForm({
  redirectTo,
  lastResult,
}: {
  redirectTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = usePendingIntent('login');
  const [form, fields] = useForm({
    id: 'login-form',
    lastResult,
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError id={form.errorId} errors={form.errors} />
      <InputField
        label="Username"
        field={fields.username}
        inputProps={{
          ...getInputProps(fields.username, { type: 'text' }),
          autoComplete: 'username',
        }}
      />
      <PasswordField label="Password" field={fields.password} autoComplete="current-password" />
      <SubmitButton pending={pending} pendingLabel="Logging in..." className="w-full">
        Login
      </SubmitButton>
    </Form>
  );
}
