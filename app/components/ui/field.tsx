import { Fragment } from 'react';

import { cn } from '~/utils/cn';

export const inputClass =
  'block w-full rounded-md border border-input bg-background px-3 py-2 text-sm text-foreground ' +
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive';

/** The error list under a field; its id is what the input's aria-describedby points at. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const list = errors?.filter(Boolean) ?? [];
  if (list.length === 0) return null;
  return (
    <ul
      id={id}
      className="mt-1 space-y-0.5 text-sm font-medium text-destructive"
      aria-live="polite"
    >
      {list.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/**
 * What a labelled control needs of its field: conform's field metadata, a server form's
 * field (`useServerForm`) or, for a control outside a validated form, just an id.
 */
export type FieldControl = {
  /** The control's id (the label's `htmlFor`; the error and hint ids derive from it). */
  id: string;
  /** The field's errors (rendered on the server too). */
  errors?: string[] | null;
  /** Conform's key: a new one (form reset or update) mounts the control afresh. */
  key?: string;
};

type FieldFrameProps = {
  label: React.ReactNode;
  field: FieldControl;
  hint?: React.ReactNode;
  /** Classes of the wrapper, after `space-y-1.5`. */
  className?: string;
};

/** The control's attributes with the frame's id, aria wiring and input class added. */
type Wire = <P extends { className?: string }>(
  props: P,
) => P & {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
  className: string;
};

/**
 * A labelled form control with its hint and errors, wired for assistive technology:
 * `aria-invalid` and `aria-describedby` point at the errors and the hint. The one place
 * that wiring is written; use it through InputField, TextareaField, SelectField.
 */
function FieldFrame({
  label,
  field,
  hint,
  className,
  children,
}: FieldFrameProps & { children: (wire: Wire) => React.ReactNode }) {
  const { id, errors } = field;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const hasErrors = Boolean(errors?.length);
  const describedBy =
    [hasErrors ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const wire: Wire = (props) => ({
    ...props,
    id,
    'aria-invalid': hasErrors || undefined,
    'aria-describedby': describedBy,
    className: cn(inputClass, props.className),
  });
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <Fragment key={field.key}>{children(wire)}</Fragment>
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/*
 * The labelled controls. `inputProps` (`textareaProps`, `selectProps`) are the control's own
 * attributes, usually conform's `getInputProps(field, { type })` plus extras such as
 * `autoComplete`; the frame adds the id and aria wiring, the field's key and the input
 * class (a `className` given there is appended to it). This module imports no conform
 * value, so the public forms that ship without conform can use it too; a form set up with
 * conform uses them through conform-fields.tsx, which fills `inputProps` from the field.
 */

type InputFieldProps = FieldFrameProps & { inputProps: React.ComponentProps<'input'> };

export function InputField({ inputProps, ...frame }: InputFieldProps) {
  return <FieldFrame {...frame}>{(wire) => <input {...wire(inputProps)} />}</FieldFrame>;
}

type TextareaFieldProps = FieldFrameProps & { textareaProps: React.ComponentProps<'textarea'> };

export function TextareaField({ textareaProps, ...frame }: TextareaFieldProps) {
  return <FieldFrame {...frame}>{(wire) => <textarea {...wire(textareaProps)} />}</FieldFrame>;
}

type SelectFieldProps = FieldFrameProps & {
  selectProps: React.ComponentProps<'select'>;
  /** The `<option>`s. */
  children: React.ReactNode;
};

export function SelectField({ selectProps, children, ...frame }: SelectFieldProps) {
  return (
    <FieldFrame {...frame}>
      {(wire) => <select {...wire(selectProps)}>{children}</select>}
    </FieldFrame>
  );
}

/**
 * An alert that lists a form's errors, one paragraph each, after an optional title; nothing when
 * there are none. `FormError` below and the back office's `FormAlert` are its two looks.
 */
export function ErrorAlert({
  errors,
  id,
  className,
  title,
}: {
  errors?: string[] | null;
  id?: string;
  className: string;
  title?: React.ReactNode;
}) {
  const list = errors?.filter(Boolean) ?? [];
  if (list.length === 0) return null;
  return (
    <div id={id} role="alert" className={className}>
      {title}
      {list.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/** A form-level error (e.g. "Invalid username or password"). */
export function FormError({ errors, id }: { errors?: string[] | null; id?: string }) {
  return (
    <ErrorAlert
      id={id}
      errors={errors}
      className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm font-medium text-destructive"
    />
  );
}
