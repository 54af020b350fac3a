import { useToastOnce } from '~/components/site/toaster';
import { ErrorAlert } from '~/components/ui/field';

type FormAlertProps = { title: string; errors?: string[] | null; id?: string };

/**
 * A titled, form-level failure (e.g. 'Failed to create show' with the server's message),
 * rendered in the server HTML so it shows without JavaScript too.
 */
export function FormAlert({ title, errors, id }: FormAlertProps) {
  return (
    <ErrorAlert
      id={id}
      errors={errors}
      className="rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm text-foreground"
      title={<p className="font-semibold text-destructive">{title}</p>}
    />
  );
}

/**
 * A form's own failure (conform's `form.errors`, e.g. the server's message under 'Failed to
 * create show'), said twice: the alert in the server HTML, which needs no JavaScript, and
 * with JavaScript a toast (once per message).
 */
export function FormFailure({ title, errors, id }: FormAlertProps) {
  useToastOnce(errors?.length ? { type: 'error', title, description: errors.join(' ') } : null);
  return <FormAlert id={id} title={title} errors={errors} />;
}
