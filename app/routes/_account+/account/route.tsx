import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Link, Outlet, useActionData, useLoaderData, useNavigation } from '@remix-run/react';

import { requireUser } from '~/auth/auth.server';
import { NewPasswordFields, PasswordField } from '~/components/site/password-field';
import { PrivateFeedSettings } from '~/components/site/private-feed-settings';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import { SchemaForm, useSchemaForm } from '~/components/ui/schema-form';
import { getFeedTokenOfUser } from '~/models/podcast-feed-token.server';
import { retryAfterFromAction } from '~/platform/rate-limit.server';
import { readForm } from '~/platform/request-body.server';
import {
  ACCOUNT_EMAIL_INTENT,
  ACCOUNT_EMAIL_RESEND_INTENT,
  ChangePasswordSchema,
  PODCAST_FEED_CREATE_INTENT,
  PODCAST_FEED_REVOKE_INTENT,
} from '~/schemas/account';
import { getAccountEmail } from '~/services/account-email.server';
import { pageTitle } from '~/utils/seo/seo';

import {
  changePassword,
  createPodcastFeed,
  resendLink,
  revokePodcastFeed,
  saveEmail,
} from './actions.server';
import { EmailSettings } from './email-settings';

export const meta: MetaFunction = ({ matches }) => [pageTitle(matches, 'Account')];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [emailState, feed] = await Promise.all([
    getAccountEmail(user.id),
    getFeedTokenOfUser(user.id),
  ]);
  return { username: user.username, ...emailState, podcastFeedCreatedAt: feed?.createdAt ?? null };
}

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

export default function AccountPage() {
  const { username, email, pendingEmail, newsletter, podcastFeedCreatedAt } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm(
    'change-password',
    ChangePasswordSchema,
    actionData?.form === 'password' ? actionData.result : undefined,
  );
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
        <SchemaForm form={form} className="mt-4 space-y-4">
          <PasswordField label="Current password" field={fields.currentPassword} />
          <NewPasswordFields
            labels={['New password', 'Confirm new password']}
            fields={[fields.newPassword, fields.confirmPassword]}
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
        </SchemaForm>
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
