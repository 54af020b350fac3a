import type { SubmissionResult } from '@conform-to/react';
import { useEffect, useRef } from 'react';

/** HTML constraints of a field (the subset of conform's `Constraint` the public forms use). */
export type FieldConstraint = { required?: boolean; minLength?: number; maxLength?: number };

export type ServerField = {
  formId: string;
  id: string;
  name: string;
  errorId: string;
  /** The server's errors for the field, undefined when none. */
  errors: string[] | undefined;
  /** The submitted value, to render again after an error (also without JavaScript). */
  initialValue: unknown;
  constraint: FieldConstraint;
};

export type ServerForm = {
  id: string;
  errorId: string;
  /** Form-level errors (e.g. a rate limit), undefined when none. */
  errors: string[] | undefined;
};

const list = (errors: string[] | null | undefined) =>
  errors && errors.length > 0 ? errors : undefined;

/**
 * A public form validated on the server only: reads the conform reply (`submission.reply()`)
 * of the page action and gives the same ids, errors and submitted values as conform's `useForm`
 * would, without shipping conform or zod to the browser (`/` ships at most 120 KB of gzipped JS).
 * With JavaScript, the first invalid field gets the focus after a failed submission (as
 * conform does).
 */
export function useServerForm<Name extends string>(
  formId: string,
  lastResult: SubmissionResult<string[]> | null | undefined,
  constraints: Record<Name, FieldConstraint>,
): [ServerForm, Record<Name, ServerField>] {
  const error = lastResult?.error ?? {};
  const initialValue = lastResult?.initialValue ?? {};
  const form: ServerForm = {
    id: formId,
    errorId: `${formId}-error`,
    errors: list(error['']),
  };
  const fields = {} as Record<Name, ServerField>;
  for (const name of Object.keys(constraints) as Name[]) {
    const id = `${formId}-${name}`;
    fields[name] = {
      formId,
      id,
      name,
      errorId: `${id}-error`,
      errors: list(error[name]),
      initialValue: initialValue[name],
      constraint: constraints[name],
    };
  }

  const reported = useRef(lastResult);
  useEffect(() => {
    if (!lastResult || lastResult === reported.current) return;
    reported.current = lastResult;
    if (lastResult.status !== 'error') return;
    const element = document.getElementById(formId);
    if (!(element instanceof HTMLFormElement)) return;
    for (const control of Array.from(element.elements)) {
      const name = control.getAttribute('name');
      if (name && list(lastResult.error?.[name]) && control instanceof HTMLElement) {
        control.focus();
        break;
      }
    }
  }, [formId, lastResult]);

  return [form, fields];
}

/** Props of the `<form>`, as conform's `getFormProps` (the browser's own checks stay off). */
export function serverFormProps(form: ServerForm) {
  return {
    id: form.id,
    noValidate: true,
    'aria-describedby': form.errors ? form.errorId : undefined,
  };
}

/** Props of an `<input>`, as conform's `getInputProps`. */
export function serverInputProps(
  field: ServerField,
  { type }: { type: 'text' | 'email' | 'checkbox' },
) {
  const invalid = field.errors !== undefined;
  const props = {
    required: field.constraint.required || undefined,
    id: field.id,
    name: field.name,
    form: field.formId,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? field.errorId : undefined,
    type,
    minLength: field.constraint.minLength,
    maxLength: field.constraint.maxLength,
  };
  if (type === 'checkbox') {
    return { ...props, value: 'on', defaultChecked: field.initialValue === 'on' };
  }
  return typeof field.initialValue === 'string'
    ? { ...props, defaultValue: field.initialValue }
    : props;
}
