import { data, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { requireUser } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { PageHeader } from '~/components/site/section-heading';
import { buttonClass } from '~/components/ui/button';
import { HTTP_STATUS } from '~/platform/http-errors.server';
import { verifyAccountEmail } from '~/services/account-email.server';
import { linkPageMeta } from '~/utils/seo/seo';

export const meta = linkPageMeta('Confirm your email address');

/**
 * The link in the verification email (decision 030). It works for the account it was sent
 * for, logged in: without a session the member logs in first and comes back here, so a mail
 * scanner opening the link (it has no session) confirms nothing, and neither does the owner
 * of the address clicking a link an account they do not hold sent them. A confirmed address
 * goes back to /account with a toast; a link that cannot confirm anything gets a page that
 * says why: 400 (not ours, or another account's), 410 (expired or already used).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const outcome = await verifyAccountEmail(user, params.token ?? '');
  if (outcome.result === 'confirmed') {
    return redirectWithToast('/account', {
      type: 'success',
      title: 'Email address confirmed',
      description:
        outcome.newsletter === 'off'
          ? `${outcome.email} is your account's email address now.`
          : `${outcome.email} is your account's email address now, and it gets the newsletter.`,
    });
  }
  const status =
    outcome.result === 'expired' || outcome.result === 'used'
      ? HTTP_STATUS.gone
      : HTTP_STATUS.badRequest;
  return data(
    { state: outcome.result, username: user.username },
    { status, headers: { 'Cache-Control': 'no-store' } },
  );
}

const MESSAGES = {
  invalid: {
    title: 'Invalid link',
    text: 'This link is not one we sent, or a newer link for the same address replaced it. Use the latest link from our emails, or send a new one from your account page.',
  },
  foreign: {
    title: 'This link is for another account',
    text: 'It was sent for a different account than the one you are logged in with. Log out, log in as that account, and open the link again.',
  },
  expired: {
    title: 'This link has expired',
    text: 'Links to confirm an email address work for 24 hours. Send a new one from your account page.',
  },
  used: {
    title: 'This link was already used',
    text: 'The address it confirms is already confirmed, or was replaced since. Your account page shows the address in use.',
  },
} as const;

export default function VerifyEmail() {
  const { state, username } = useLoaderData<typeof loader>();
  const message = MESSAGES[state];
  return (
    <>
      <PageHeader title="Account" intro="Confirm your email address" />
      <div className="container max-w-xl py-12" data-testid="verify-email">
        <div role="alert" className="space-y-3">
          <h2 className="text-2xl font-bold">{message.title}</h2>
          <p className="text-muted-foreground">{message.text}</p>
          <p className="text-sm text-muted-foreground">
            Logged in as <strong className="text-foreground">{username}</strong>.
          </p>
          <Link to="/account" className={buttonClass('outline', 'md')}>
            Go to my account
          </Link>
        </div>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
