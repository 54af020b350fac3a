import { type FormMetadata, getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';
import type { z } from 'zod';

import { FormError } from '~/components/ui/field';

/**
 * A form checked by its zod schema in the browser as the action checks it on the server
 * (conform): a field on blur, then on every keystroke once it shows an error. An error clears
 * while typing, not on blur: a blur that removes the error line as the button is pressed
 * would move the button from under the pointer.
 */
export function useSchemaForm<Schema extends z.ZodType<unknown, z.ZodTypeDef, FormValues>>(
  id: string,
  schema: Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
) {
  return useForm({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

type FormValues = Record<string, unknown>;

/**
 * The `<form>` of {@link useSchemaForm} (posted to the page's action, so it works without
 * JavaScript): its hidden values, then the form's own error above the fields.
 */
export function SchemaForm<Values extends FormValues>({
  form,
  hidden,
  className,
  children,
}: {
  form: FormMetadata<Values, string[]>;
  /** Hidden inputs, in order: name → value. */
  hidden?: Record<string, string>;
  className: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" {...getFormProps(form)} className={className}>
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormError id={form.errorId} errors={form.errors} />
      {children}
    </Form>
  );
}
