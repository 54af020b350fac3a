import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';

import { EmailLinkOutcome, EmailLinkPage, EmailLinkQuestion } from '~/components/site/email-link';
import { useSiteName } from '~/document/use-root-data';
import { checkLinkToken, maskEmail } from '~/mail/tokens.server';
import { confirmSubscriber, getConfirmation } from '~/models/subscriber.server';
import { HTTP_STATUS } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { linkPageMeta } from '~/utils/seo/seo';

export const meta = linkPageMeta('Confirm your subscription');

const CONFIRMED_TEXT = 'Your subscription is confirmed';
const EXPIRED_TEXT = 'This confirmation link has expired';
/** Ends with a space: the link to the home page follows. */
const GONE_TEXT =
  'The address left the list or was removed. To receive the newsletter, sign up again on the ';

/** Malformed or not ours: 400; ours but too old or superseded: 410 Gone. */
function refused(reason: 'invalid' | 'expired') {
  return reason === 'invalid'
    ? data({ state: 'invalid' as const, email: null }, { status: HTTP_STATUS.badRequest })
    : data({ state: 'expired' as const, email: null }, { status: HTTP_STATUS.gone });
}

/** The token's check, then `read` (look, or confirm); the address masked in the answer. */
async function answer(
  tokenText: string | undefined,
  read: typeof getConfirmation | typeof confirmSubscriber,
) {
  const token = checkLinkToken('confirm', tokenText ?? '');
  if (!token.ok) return refused(token.reason);
  const { state, email } = await read(token.id, token.issuedAt ?? new Date(0));
  if (state === 'expired') return refused('expired');
  return data({ state, email: state === 'gone' || !email ? null : maskEmail(email) });
}

/**
 * The link in the confirmation email (double opt-in, decisions 016 and 029). GET shows the
 * address and a Confirm button; the POST makes the subscriber active. Opening the link alone
 * changes nothing, so a mail scanner that follows links cannot subscribe anyone. A link works
 * for 7 days, and only for the sign-up it was sent for: one issued before the address left
 * the list (or signed up again) confirms nothing.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  return answer(params.token, getConfirmation);
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request, { maxBytes: 16 * 1024 });
  return answer(params.token, confirmSubscriber);
}

export default function ConfirmSubscription() {
  const loaded = useLoaderData<typeof loader>();
  const siteName = useSiteName();
  const acted = useActionData<typeof action>();
  const state = acted?.state ?? loaded.state;
  const email = acted?.email ?? loaded.email;
  return (
    <EmailLinkPage intro="Confirm your subscription" testId="confirm-subscription">
      {state === 'invalid' ? (
        <EmailLinkOutcome role="alert" title="Invalid link">
          This confirmation link is not valid. Please use the link from our email as it is, or sign
          up again on the <Link to="/#newsletter">home page</Link>.
        </EmailLinkOutcome>
      ) : state === 'expired' ? (
        <EmailLinkOutcome role="alert" title={EXPIRED_TEXT}>
          A confirmation link works for 7 days, and only the newest one we sent counts. Sign up
          again on the <Link to="/#newsletter">home page</Link> and we will email you a new link.
        </EmailLinkOutcome>
      ) : state === 'done' ? (
        <EmailLinkOutcome role="status" title={CONFIRMED_TEXT}>
          Thank you! {email ?? 'Your address'} will receive our next newsletter.
        </EmailLinkOutcome>
      ) : state === 'gone' ? (
        <EmailLinkOutcome role="status" title="This sign-up has ended">
          {GONE_TEXT}
          <Link to="/#newsletter">home page</Link>.
        </EmailLinkOutcome>
      ) : (
        <EmailLinkQuestion label="Confirm subscription" pendingLabel="Confirming...">
          Receive the {siteName} newsletter at <strong>{email}</strong>?
        </EmailLinkQuestion>
      )}
    </EmailLinkPage>
  );
}
