import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';
import type { z } from 'zod';

import { SubmitButton } from '~/components/ui/button';
import { FormError, InputField } from '~/components/ui/field';
import {
  ACCOUNT_EMAIL_INTENT,
  ACCOUNT_EMAIL_RESEND_INTENT,
  AccountEmailSchema,
} from '~/schemas/account';
import type { AccountNewsletter } from '~/services/account-email.server';

/**
 * The optional email and the newsletter toggle. A new address is "unconfirmed" until the
 * member opens the link sent to it (decision 030); the toggle acts only on the confirmed
 * address, and shows the list's state for it ("pending" waits for the newsletter's own
 * confirmation link when double opt-in is on).
 */
export function EmailSettings({
  email,
  pendingEmail,
  newsletter,
  lastResult,
  resendError,
  submittingIntent,
}: {
  email: string | null;
  pendingEmail: string | null;
  newsletter: AccountNewsletter;
  lastResult: SubmissionResult<string[]> | undefined;
  resendError: string | undefined;
  submittingIntent: FormDataEntryValue | null | undefined;
}) {
  const [form, fields] = useForm<z.input<typeof AccountEmailSchema>>({
    id: 'account-email',
    lastResult,
    defaultValue: {
      email: pendingEmail ?? email ?? '',
      newsletter: newsletter === 'off' ? undefined : 'on',
    },
    constraint: getZodConstraint(AccountEmailSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountEmailSchema }),
  });
  const newsletterLocked = !email || Boolean(pendingEmail);
  return (
    <>
      <h2 className="mt-8 font-heading text-lg font-semibold">Email and newsletter</h2>
      <p className="mt-2 text-sm text-muted-foreground">
        Optional. With a confirmed email address you can get the newsletter, and we confirm your
        guest-list spots by email. A new address gets a link first, to make sure it is yours.
      </p>
      <div data-testid="email-status" className="mt-3 text-sm">
        {pendingEmail ? (
          <p>
            <strong>{pendingEmail}</strong> is <strong>unconfirmed</strong>: open the link we sent
            to it to confirm it.
            {email
              ? ` Until then we keep using ${email}.`
              : ' Until then we send nothing else to it.'}
          </p>
        ) : email ? (
          <p>
            <strong>{email}</strong> is confirmed.
          </p>
        ) : null}
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value={ACCOUNT_EMAIL_INTENT} />
        <FormError id={form.errorId} errors={form.errors} />
        <InputField
          label="Email"
          field={fields.email}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
        />
        <div className="flex items-start gap-3">
          <input
            {...getInputProps(fields.newsletter, { type: 'checkbox' })}
            disabled={newsletterLocked}
            className="mt-0.5 h-5 w-5 rounded border-input accent-primary disabled:opacity-50"
          />
          <label htmlFor={fields.newsletter.id} className="text-sm">
            Send me the newsletter
            {newsletterLocked ? (
              <span className="block text-muted-foreground">
                {email
                  ? `The newsletter setting stays as it is for ${email} until your new address is confirmed.`
                  : 'You can turn the newsletter on once your email address is confirmed.'}
              </span>
            ) : newsletter === 'pending' ? (
              <span className="block text-muted-foreground">
                Waiting for your confirmation: check your inbox for the link.
              </span>
            ) : null}
          </label>
        </div>
        <SubmitButton
          pending={submittingIntent === ACCOUNT_EMAIL_INTENT}
          pendingLabel="Saving..."
          variant="outline"
          className="w-full"
        >
          Save email settings
        </SubmitButton>
      </Form>
      {pendingEmail ? (
        <Form method="post" id="account-email-resend" className="mt-3 space-y-3">
          <input type="hidden" name="intent" value={ACCOUNT_EMAIL_RESEND_INTENT} />
          <FormError errors={resendError ? [resendError] : undefined} />
          <SubmitButton
            pending={submittingIntent === ACCOUNT_EMAIL_RESEND_INTENT}
            pendingLabel="Sending..."
            variant="ghost"
            className="w-full"
          >
            Send the link again
          </SubmitButton>
        </Form>
      ) : null}
    </>
  );
}
