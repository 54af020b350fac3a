import { NewPasswordFields } from '~/components/site/password-field';
import { SubmitButton, usePendingIntent } from '~/components/ui/button';
import { ConformInputField } from '~/components/ui/conform-fields';
import { SchemaForm, useSchemaForm } from '~/components/ui/schema-form';
import { RegisterSchema } from '~/schemas/auth';

import type { AuthFormProps } from './login-form';

/** Username, password and its confirmation; posts `intent=register` to the page's action. */
export function RegisterForm({ redirectTo, lastResult }: AuthFormProps) {
  const pending = usePendingIntent('register');
  const [form, fields] = useSchemaForm('register-form', RegisterSchema, lastResult);
  return (
    <SchemaForm form={form} hidden={{ intent: 'register', redirectTo }} className="space-y-4">
      <ConformInputField
        label="Username"
        field={fields.username}
        hint="At least 3 characters"
        autoComplete="username"
      />
      <NewPasswordFields
        labels={['Password', 'Confirm Password']}
        fields={[fields.password, fields.confirmPassword]}
      />
      <SubmitButton pending={pending} pendingLabel="Creating account..." className="w-full">
        Create Account
      </SubmitButton>
    </SchemaForm>
  );
}
