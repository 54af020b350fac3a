import { getInputProps, type SubmissionResult } from '@conform-to/react';

import { PasswordField } from '~/components/site/password-field';
import { SubmitButton, usePendingIntent } from '~/components/ui/button';
import { InputField } from '~/components/ui/field';
import { SchemaForm, useSchemaForm } from '~/components/ui/schema-form';
import { LoginSchema } from '~/schemas/auth';

/** What the page gives each of its two forms: where to go after, and the action's answer. */
export type AuthFormProps = { redirectTo: string; lastResult?: SubmissionResult<string[]> };

/** Username and password; posts `intent=login` to the page's action. */
export function LoginForm({ redirectTo, lastResult }: AuthFormProps) {
  const pending = usePendingIntent('login');
  const [form, fields] = useSchemaForm('login-form', LoginSchema, lastResult);
  return (
    <SchemaForm form={form} hidden={{ intent: 'login', redirectTo }} className="space-y-4">
      <InputField
        label="Username"
        field={fields.username}
        inputProps={{
          ...getInputProps(fields.username, { type: 'text' }),
          autoComplete: 'username',
        }}
      />
      <PasswordField label="Password" field={fields.password} />
      <SubmitButton pending={pending} pendingLabel="Logging in..." className="w-full">
        Login
      </SubmitButton>
    </SchemaForm>
  );
}
