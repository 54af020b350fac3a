import {
  type DefaultValue,
  type FormMetadata,
  getFormProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, Link, useActionData } from '@remix-run/react';
import type { FormEvent, ReactNode } from 'react';
import type { z, ZodTypeAny } from 'zod';

import { FormAlert } from '~/components/admin/form-alert';
import { useRequiredFiles } from '~/components/admin/required-files';
import { usePostPending } from '~/components/admin/use-post-pending';
import { useToastOnce } from '~/components/site/toaster';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import type { FormActionResult } from '~/types/forms';

/**
 * conform's form as every admin form sets it up (the architecture guide's convention): the
 * zod schema's constraints, validated on blur and again on input, the server's last answer.
 */
export function useAdminForm<Schema extends ZodTypeAny>({
  id,
  lastResult,
  schema,
  defaultValue,
  onSubmit,
}: {
  id: string;
  lastResult?: SubmissionResult<string[]> | null;
  schema: Schema;
  defaultValue?: DefaultValue<z.input<Schema>>;
  onSubmit?: (event: FormEvent<HTMLFormElement>, context: { formData: FormData }) => void;
}) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit,
  });
}

/**
 * The end of an admin form: Cancel (back to the list the dialog closes to) and the submit
 * button with its pending label (SPEC §4: Creating/Updating..., Adding..., Publishing...).
 */
export function FormActions({
  closeTo,
  label,
  pendingLabel,
}: {
  closeTo: string;
  label: string;
  pendingLabel: string;
}) {
  const pending = usePostPending();
  return (
    <div className="flex flex-wrap justify-end gap-2 pt-2">
      <Link to={closeTo} preventScrollReset className={buttonClass('outline')}>
        Cancel
      </Link>
      <SubmitButton pending={pending} pendingLabel={pendingLabel}>
        {label}
      </SubmitButton>
    </div>
  );
}

/**
 * What the add and edit routes give an upload form (blog, gallery, track): the action's last
 * answer and where Cancel goes.
 */
export type UploadFormProps = {
  lastResult?: SubmissionResult<string[]>;
  /** The server's title for the failure (e.g. 'Failed to create track'). */
  alertTitle?: string;
  closeTo: string;
};

/**
 * The add or edit route's side of its upload form: the action's answer (when the save did not
 * go through) shown once as a toast, and the form's props.
 */
export function useUploadFormProps(closeTo: string): UploadFormProps {
  const answer = useActionData<FormActionResult>();
  useToastOnce(answer?.toast);
  return { lastResult: answer?.result, alertTitle: answer?.alertTitle, closeTo };
}

/**
 * An upload form's setup: `useAdminForm` with the files the form cannot go without checked
 * before it is sent (`useRequiredFiles`; on create only). `frame` is what `UploadForm` takes
 * besides its submit labels.
 */
export function useUploadForm<Schema extends ZodTypeAny>(
  { lastResult, alertTitle, closeTo }: UploadFormProps,
  setup: {
    id: string;
    schema: Schema;
    defaultValue: DefaultValue<z.input<Schema>>;
    requiredFiles: Parameters<typeof useRequiredFiles>[0];
  },
) {
  const files = useRequiredFiles(setup.requiredFiles);
  const [form, fields] = useAdminForm({
    id: setup.id,
    lastResult,
    schema: setup.schema,
    defaultValue: setup.defaultValue,
    onSubmit: (event, { formData }) => files.check(event, formData),
  });
  return { form, fields, frame: { form, files, alertTitle, closeTo } };
}

/**
 * The frame of the admin forms that upload files (blog, gallery, track): a multipart POST that
 * works without JavaScript, its form-level alert first (the server's message under the
 * failure's title, or the required files that are missing), its fields, then `FormActions`.
 */
export function UploadForm<Schema extends Record<string, unknown>>({
  form,
  files,
  alertTitle,
  closeTo,
  submit,
  children,
}: Omit<UploadFormProps, 'lastResult'> & {
  form: FormMetadata<Schema, string[]>;
  files: ReturnType<typeof useRequiredFiles>;
  submit: { label: string; pendingLabel: string };
  children: ReactNode;
}) {
  const alert = files.alert(alertTitle ?? 'Please check the form', form.errors);
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      onChange={files.clear}
      className="space-y-4"
    >
      <FormAlert id={form.errorId} title={alert.title} errors={alert.errors} />
      {children}
      <FormActions closeTo={closeTo} {...submit} />
    </Form>
  );
}
