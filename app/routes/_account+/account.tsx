import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, Outlet, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import type { z } from 'zod';

import { createUserSession, requireUser } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { PasswordField } from '~/components/site/password-field';
import { PrivateFeedSettings } from '~/components/site/private-feed-settings';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import { FormError, InputField } from '~/components/ui/field';
import {
  createFeedToken,
  getFeedTokenOfUser,
  revokeFeedTokens,
} from '~/models/podcast-feed-token.server';
import { retryAfterFromAction } from '~/platform/rate-limit.server';
import { readForm } from '~/platform/request-body.server';
import { privateFeedUrl } from '~/podcast/podcast.server';
import {
  ACCOUNT_EMAIL_INTENT,
  ACCOUNT_EMAIL_RESEND_INTENT,
  AccountEmailSchema,
  ChangePasswordSchema,
  PODCAST_FEED_CREATE_INTENT,
  PODCAST_FEED_REVOKE_INTENT,
} from '~/schemas/account';
import {
  type AccountNewsletter,
  getAccountEmail,
  resendEmailLink,
  saveAccountEmail,
  type SaveAccountEmailOutcome,
} from '~/services/account-email.server';
import { changeAccountPassword, confirmOwnPassword } from '~/services/accounts.server';
import type { UserJSON } from '~/types/entities';
import { pageTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => [pageTitle(matches, 'Account')];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [emailState, feed] = await Promise.all([
    getAccountEmail(user.id),
    getFeedTokenOfUser(user.id),
  ]);
  return { username: user.username, ...emailState, podcastFeedCreatedAt: feed?.createdAt ?? null };
}

const hideFields = ['currentPassword', 'newPassword', 'confirmPassword'];

/** A 429 of the action keeps its Retry-After on the page's answer. */
export const headers = retryAfterFromAction;

/**
 * Change the password: the current one must be right (counted like a login attempt,
 * so this form cannot be used to guess it). Every session of the user ends, this one
 * included, and a fresh session is issued to this browser.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const intent = formData.get('intent');
  if (intent === ACCOUNT_EMAIL_INTENT) return saveEmail(user, formData, request);
  if (intent === ACCOUNT_EMAIL_RESEND_INTENT) return resendLink(user);
  if (intent === PODCAST_FEED_CREATE_INTENT) return createPodcastFeed(user);
  if (intent === PODCAST_FEED_REVOKE_INTENT) return revokePodcastFeed(user);
  return changePassword(user, formData, request);
}

const NEWSLETTER: Record<AccountNewsletter, (email: string) => string> = {
  subscribed: (email) => `You're subscribed to the newsletter at ${email}.`,
  pending: (email) =>
    `Check your inbox: confirm your subscription with the link we sent to ${email}.`,
  off: () => "Your email was saved. You won't get the newsletter.",
};

const UNCONFIRMED_UNTIL = (email: string | null) =>
  email ? ` Until then we keep using ${email}.` : ' Until then we send nothing else to it.';

/** The toast of a saved email form (decisions 020 and 030). */
function savedToast(saved: Exclude<SaveAccountEmailOutcome, { result: 'too-many' }>) {
  switch (saved.result) {
    case 'removed':
      return {
        title: 'Email settings saved',
        description: 'Your account has no email address now.',
      };
    case 'saved':
      return {
        title: 'Email settings saved',
        description: NEWSLETTER[saved.newsletter](saved.email),
      };
    case 'change-cancelled':
      return {
        title: 'Email settings saved',
        description: `You keep ${saved.email}; the change to another address was cancelled.`,
      };
    case 'link-sent':
      return {
        title: 'Check your inbox',
        description: `We sent a link to ${saved.pendingEmail}: open it to confirm the address.${UNCONFIRMED_UNTIL(saved.email)}`,
      };
    case 'link-live':
      return {
        title: 'Check your inbox',
        description: `${saved.pendingEmail} is still unconfirmed: open the link we sent to it, or send it again.`,
      };
  }
}

/** The account's email and newsletter toggle (decisions 020 and 030). */
async function saveEmail(user: UserJSON, formData: FormData, request: Request) {
  const submission = parseWithZod(formData, { schema: AccountEmailSchema });
  if (submission.status !== 'success') {
    return data({ form: 'email' as const, result: submission.reply() }, { status: 400 });
  }
  const saved = await saveAccountEmail(
    user,
    { email: submission.value.email ?? null, newsletter: submission.value.newsletter === true },
    request,
  );
  if (saved.result === 'too-many') {
    return data(
      { form: 'email' as const, result: submission.reply({ formErrors: [saved.message] }) },
      { status: 429, headers: { 'Retry-After': String(saved.retryAfterSeconds) } },
    );
  }
  return redirectWithToast('/account', { type: 'success', ...savedToast(saved) });
}

/** "Send the link again" to the unconfirmed address. */
async function resendLink(user: UserJSON) {
  const sent = await resendEmailLink(user);
  if (sent.result === 'too-many') {
    return data(
      { form: 'email-resend' as const, error: sent.message },
      { status: 429, headers: { 'Retry-After': String(sent.retryAfterSeconds) } },
    );
  }
  if (sent.result === 'nothing-pending') {
    return redirectWithToast('/account', {
      type: 'info',
      title: 'Nothing to confirm',
      description: 'Your account has no unconfirmed email address.',
    });
  }
  return redirectWithToast('/account', {
    type: 'success',
    title: 'Link sent',
    description: `We sent a new link to ${sent.pendingEmail}. The one we sent before no longer works.`,
  });
}

/**
 * A new private podcast feed (decision 037), replacing any earlier one. Its address is in this
 * answer only (never in a redirect's URL or a cookie), so it is rendered at once and never
 * stored by any cache.
 */
async function createPodcastFeed(user: UserJSON) {
  const { token } = await createFeedToken(user.id);
  return data(
    { form: 'podcast-feed' as const, feedUrl: privateFeedUrl(token) },
    { headers: { 'Cache-Control': 'private, no-store' } },
  );
}

async function revokePodcastFeed(user: UserJSON) {
  const revoked = await revokeFeedTokens(user.id);
  return redirectWithToast('/account', {
    type: revoked ? 'success' : 'info',
    title: revoked ? 'Private feed revoked' : 'No private feed',
    description: revoked
      ? 'Your private feed address and its episode links no longer work.'
      : 'Your account had no private feed.',
  });
}

async function changePassword(user: UserJSON, formData: FormData, request: Request) {
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  const password = (result: ReturnType<typeof submission.reply>) => ({
    form: 'password' as const,
    result,
  });
  if (submission.status !== 'success') {
    return data(password(submission.reply({ hideFields })), { status: 400 });
  }
  const check = await confirmOwnPassword(request, user.username, submission.value.currentPassword);
  if (check.result === 'too-many') {
    return data(password(submission.reply({ formErrors: [check.message], hideFields })), {
      status: 429,
      headers: check.headers,
    });
  }
  if (check.result === 'incorrect') {
    return data(
      password(
        submission.reply({
          fieldErrors: { currentPassword: ['Current password is incorrect'] },
          hideFields,
        }),
      ),
      { status: 400 },
    );
  }
  const feedRevoked = await changeAccountPassword(user, submission.value.newPassword);
  const headers = await createUserSession(request, user);
  return redirectWithToast(
    '/account',
    {
      type: 'success',
      title: 'Password changed',
      description: feedRevoked
        ? 'Your password was changed, your other sessions were signed out and your private podcast feed was revoked: create a new one below.'
        : 'Your password was changed and your other sessions were signed out.',
    },
    { headers },
  );
}

export default function AccountPage() {
  const { username, email, pendingEmail, newsletter, podcastFeedCreatedAt } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'change-password',
    lastResult: actionData?.form === 'password' ? actionData.result : undefined,
    constraint: getZodConstraint(ChangePasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
  });
  return (
    <div className="container py-12 md:py-16">
      <section
        aria-labelledby="account-heading"
        className="mx-auto max-w-md rounded-lg border border-border bg-card p-6 sm:p-8"
      >
        <h1 id="account-heading" className="font-heading text-2xl font-bold">
          Account
        </h1>
        <p className="mt-2 text-sm text-muted-foreground">
          Signed in as <strong className="text-foreground">{username}</strong>.
        </p>
        <EmailSettings
          email={email}
          pendingEmail={pendingEmail}
          newsletter={newsletter}
          lastResult={actionData?.form === 'email' ? actionData.result : undefined}
          resendError={actionData?.form === 'email-resend' ? actionData.error : undefined}
          submittingIntent={
            navigation.state === 'submitting' ? navigation.formData?.get('intent') : undefined
          }
        />
        <PrivateFeedSettings
          createdAt={podcastFeedCreatedAt}
          newFeedUrl={actionData?.form === 'podcast-feed' ? actionData.feedUrl : null}
          submittingIntent={
            navigation.state === 'submitting' ? navigation.formData?.get('intent') : undefined
          }
        />
        <h2 className="mt-8 font-heading text-lg font-semibold">Favourites</h2>
        <p className="mt-2 text-sm text-muted-foreground">
          The tracks you heart are saved to your account, on every browser you log in with.
        </p>
        <Link to="/account/favourites" className={buttonClass('outline', 'md', 'mt-3')}>
          My favourites
        </Link>
        <h2 className="mt-8 font-heading text-lg font-semibold">Change password</h2>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          <FormError id={form.errorId} errors={form.errors} />
          <PasswordField
            label="Current password"
            field={fields.currentPassword}
            autoComplete="current-password"
          />
          <PasswordField
            label="New password"
            field={fields.newPassword}
            autoComplete="new-password"
            hint="At least 6 characters"
          />
          <PasswordField
            label="Confirm new password"
            field={fields.confirmPassword}
            autoComplete="new-password"
          />
          <SubmitButton
            pending={
              navigation.state === 'submitting' &&
              navigation.formAction === '/account' &&
              navigation.formData?.get('intent') !== ACCOUNT_EMAIL_INTENT &&
              navigation.formData?.get('intent') !== ACCOUNT_EMAIL_RESEND_INTENT &&
              navigation.formData?.get('intent') !== PODCAST_FEED_CREATE_INTENT &&
              navigation.formData?.get('intent') !== PODCAST_FEED_REVOKE_INTENT
            }
            pendingLabel="Saving..."
            className="w-full"
          >
            Change password
          </SubmitButton>
        </Form>
        <h2 className="mt-10 font-heading text-lg font-semibold">Delete my account</h2>
        <p className="mt-2 text-sm text-muted-foreground">
          Removes your account, favourites and guest-list spots for good.
        </p>
        <Link
          to="/account/delete"
          preventScrollReset
          className={buttonClass('destructive', 'md', 'mt-3')}
        >
          Delete my account
        </Link>
      </section>
      <Outlet />
    </div>
  );
}

/**
 * The optional email and the newsletter toggle. A new address is "unconfirmed" until the
 * member opens the link sent to it (decision 030); the toggle acts only on the confirmed
 * address, and shows the list's state for it ("pending" waits for the newsletter's own
 * confirmation link when double opt-in is on).
 */
function EmailSettings({
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
