import { Form, useActionData, useNavigation, useSearchParams } from '@remix-run/react';

import { CheckCircle2 } from '~/components/site/icons';
import { IntentSubmitButton } from '~/components/ui/button';
import { ErrorList, FormError, InputField } from '~/components/ui/field';
import { cn } from '~/utils/cn';

import { Honeypot } from './honeypot';
import { NEWSLETTER_CONSTRAINTS } from './newsletter-constraints';
import { isPublicFormActionData } from './public-form-types';
import { serverFormProps, serverInputProps, useServerForm } from './server-form';
import { useToastOnce } from './toaster';

export const SUBSCRIBE_INTENT = 'subscribe';
export const THANK_YOU_TITLE = 'Thank you for subscribing!';

/**
 * The newsletter sign-up: `full` (home page) asks for name, email and the privacy box;
 * `minimal` (blog posts) for email and the privacy box. It posts to the current page, whose
 * action calls `subscribeAction`; after success the page reloads with `?subscribed=1` (or
 * `?subscribed=confirm` when sign-ups must be confirmed by email) and the thank-you message
 * replaces the form.
 */
export function NewsletterForm({
  variant,
  className,
}: {
  variant: 'full' | 'minimal';
  className?: string;
}) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const raw = useActionData();
  const actionData =
    isPublicFormActionData(raw) && raw.intent === SUBSCRIBE_INTENT ? raw : undefined;
  // Validated on the server only, with NewsletterFullFormSchema / NewsletterFormSchema in the
  // page action (conform + zod); the browser gets the reply's ids, errors and values without
  // conform or zod in the bundle of `/` (page-weight budget: 120 KB of gzipped JS).
  const [form, fields] = useServerForm(
    `newsletter-${variant}`,
    actionData?.result,
    NEWSLETTER_CONSTRAINTS[variant],
  );
  useToastOnce(navigation.state === 'idle' ? actionData?.toast : null);

  const subscribed = searchParams.get('subscribed');
  if ((subscribed === '1' || subscribed === 'confirm') && !actionData) {
    return (
      <div
        role="status"
        data-testid="newsletter-thank-you"
        className={cn(
          'flex flex-col items-center gap-2 rounded-lg border border-primary/40 bg-primary/10 p-6 text-center',
          className,
        )}
      >
        <CheckCircle2 aria-hidden="true" className="h-8 w-8 text-primary" />
        <p className="text-lg font-bold">{THANK_YOU_TITLE}</p>
        <p className="text-muted-foreground">
          {subscribed === 'confirm'
            ? 'Check your inbox: follow the link in our email to confirm your subscription.'
            : 'You’ll be the first to hear about new releases, shows and news. If this address left our list before, check your inbox: it comes back once you follow the link in our email.'}
        </p>
      </div>
    );
  }

  return (
    <Form
      method="post"
      preventScrollReset
      {...serverFormProps(form)}
      aria-label={variant === 'full' ? 'Newsletter sign-up' : 'Newsletter sign-up (email only)'}
      className={cn('relative space-y-4', className)}
    >
      <Honeypot />
      <FormError errors={form.errors} id={form.errorId} />
      <div className={cn('grid gap-4', variant === 'full' ? 'sm:grid-cols-2' : '')}>
        {variant === 'full' ? (
          <InputField
            label="Name"
            field={fields.name}
            inputProps={{
              ...serverInputProps(fields.name, { type: 'text' }),
              autoComplete: 'name',
              placeholder: 'Your name',
            }}
          />
        ) : null}
        <InputField
          label="Email"
          field={fields.email}
          inputProps={{
            ...serverInputProps(fields.email, { type: 'email' }),
            autoComplete: 'email',
            placeholder: 'you@example.com',
          }}
        />
      </div>
      <div>
        <div className="flex items-start gap-3">
          <input
            {...serverInputProps(fields.privacy, { type: 'checkbox' })}
            aria-describedby={fields.privacy.errors ? fields.privacy.errorId : undefined}
            className="mt-0.5 h-5 w-5 shrink-0 rounded border-input accent-[hsl(var(--primary))]"
          />
          <label htmlFor={fields.privacy.id} className="text-sm text-muted-foreground">
            I agree to receive emails from the collective and accept the{' '}
            <a href="/privacy" className="font-medium text-foreground underline">
              privacy policy
            </a>
            . I can unsubscribe at any time.
          </label>
        </div>
        <ErrorList id={fields.privacy.errorId} errors={fields.privacy.errors} />
      </div>
      <IntentSubmitButton
        intent={SUBSCRIBE_INTENT}
        pendingLabel="Subscribing..."
        className={variant === 'full' ? 'w-full sm:w-auto' : 'w-full'}
      >
        Subscribe
      </IntentSubmitButton>
    </Form>
  );
}
