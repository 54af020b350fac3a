import { useId } from 'react';
import { cn } from '~/utils/cn';

export const inputClass =
  'block w-full rounded-md border border-input bg-background px-3 py-2 text-sm text-foreground placeholder:text-muted-foreground ' +
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

type FieldProps = {
  label: React.ReactNode;
  /** From conform: the field's errors (rendered on the server too). */
  errors?: string[] | null;
  hint?: React.ReactNode;
  className?: string;
  /** Render the control: receives the ids to wire (id, aria-invalid, aria-describedby). */
  children: (a11y: {
    id: string;
    'aria-invalid': boolean | undefined;
    'aria-describedby': string | undefined;
  }) => React.ReactNode;
  id?: string;
};

/**
 * A labelled form control with its hint and errors, wired for assistive technology:
 * `aria-invalid` and `aria-describedby` point at the errors and the hint.
 */
export function Field({ label, errors, hint, className, children, id: givenId }: FieldProps) {
  const fallbackId = useId();
  const id = givenId ?? fallbackId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const hasErrors = Boolean(errors?.length);
  const describedBy =
    [hasErrors ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children({ id, 'aria-invalid': hasErrors || undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A form-level error (e.g. "Invalid username or password"). */
export function FormError({ errors, id }: { errors?: string[] | null; id?: string }) {
  const list = errors?.filter(Boolean) ?? [];
  if (list.length === 0) return null;
  return (
    <div
      id={id}
      role="alert"
      className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm font-medium text-destructive"
    >
      {list.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}
