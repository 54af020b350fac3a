import { useNavigation } from '@remix-run/react';
import { forwardRef } from 'react';

import { cn } from '~/utils/cn';

const VARIANTS = {
  primary: 'bg-primary text-primary-foreground hover:bg-primary/90',
  secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary/80',
  outline: 'border border-border bg-transparent hover:bg-muted',
  ghost: 'bg-transparent hover:bg-muted',
  destructive: 'bg-destructive text-destructive-foreground hover:bg-destructive/90',
} as const;

const SIZES = {
  sm: 'h-9 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'h-10 w-10 p-0',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

/** Class names for anything that should look like a button (links included). */
export function buttonClass(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  extra?: string,
) {
  // `.btn` (app/styles/tailwind.css) is the shape every button shares; the focus ring is the
  // site-wide :focus-visible rule.
  return cn('btn', VARIANTS[variant], SIZES[size], extra);
}

type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
};

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', className, type = 'button', ...props },
  ref,
) {
  return (
    <button ref={ref} type={type} className={buttonClass(variant, size, className)} {...props} />
  );
});

/** A submit button that shows its pending label while the form is being submitted. */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
  ...props
}: ButtonProps & { pending: boolean; pendingLabel: string }) {
  return (
    <Button
      type="submit"
      disabled={pending || props.disabled}
      aria-busy={pending || undefined}
      {...props}
    >
      {pending ? (
        <>
          <span
            aria-hidden="true"
            className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
          />
          {pendingLabel}
        </>
      ) : (
        children
      )}
    </Button>
  );
}

/** True while a form that posts `intent=<intent>` is being submitted (one of several on a page). */
export function usePendingIntent(intent: string) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

/**
 * The submit button of one of several forms on a page: the intent rides on the button (conform
 * resets unknown hidden inputs), and the button is pending while its own form is submitted.
 */
export function IntentSubmitButton({
  intent,
  ...props
}: ButtonProps & { intent: string; pendingLabel: string }) {
  return (
    <SubmitButton name="intent" value={intent} pending={usePendingIntent(intent)} {...props} />
  );
}
