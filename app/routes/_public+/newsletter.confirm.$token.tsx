import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';

import { PageHeader } from '~/components/site/section-heading';
import { SubmitButton } from '~/components/ui/button';
import { useSiteName } from '~/document/use-root-data';
import { checkLinkToken, maskEmail } from '~/mail/tokens.server';
import { confirmSubscriber, getConfirmation } from '~/models/subscriber.server';
import { HTTP_STATUS } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { pageTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => [
  pageTitle(matches, 'Confirm your subscription'),
  { name: 'robots', content: 'noindex' },
];

const CONFIRMED_TEXT = 'Your subscription is confirmed';
const EXPIRED_TEXT = 'This confirmation link has expired';

/** Malformed or not ours: 400; ours but too old or superseded: 410 Gone. */
function refused(reason: 'invalid' | 'expired') {
  return reason === 'invalid'
    ? data({ state: 'invalid' as const, email: null }, { status: HTTP_STATUS.badRequest })
    : data({ state: 'expired' as const, email: null }, { status: HTTP_STATUS.gone });
}

/**
 * The link in the confirmation email (double opt-in, decisions 016 and 029). GET shows the
 * address and a Confirm button; the POST makes the subscriber active. Opening the link alone
 * changes nothing, so a mail scanner that follows links cannot subscribe anyone. A link works
 * for 7 days, and only for the sign-up it was sent for: one issued before the address left
 * the list (or signed up again) confirms nothing.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const token = checkLinkToken('confirm', params.token ?? '');
  if (!token.ok) return refused(token.reason);
  const { state, email } = await getConfirmation(token.id, token.issuedAt ?? new Date(0));
  if (state === 'expired') return refused('expired');
  return data({ state, email: state === 'gone' || !email ? null : maskEmail(email) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request, { maxBytes: 16 * 1024 });
  const token = checkLinkToken('confirm', params.token ?? '');
  if (!token.ok) return refused(token.reason);
  const { state, email } = await confirmSubscriber(token.id, token.issuedAt ?? new Date(0));
  if (state === 'expired') return refused('expired');
  return data({ state, email: state === 'gone' || !email ? null : maskEmail(email) });
}

export default function ConfirmSubscription() {
  const loaded = useLoaderData<typeof loader>();
  const siteName = useSiteName();
  const acted = useActionData<typeof action>();
  const navigation = useNavigation();
  const state = acted?.state ?? loaded.state;
  const email = acted?.email ?? loaded.email;
  return (
    <>
      <PageHeader title="Newsletter" intro="Confirm your subscription" />
      <div className="container max-w-xl py-12" data-testid="confirm-subscription">
        {state === 'invalid' ? (
          <div role="alert" className="space-y-2">
            <h2 className="text-2xl font-bold">Invalid link</h2>
            <p className="text-muted-foreground">
              This confirmation link is not valid. Please use the link from our email as it is, or
              sign up again on the <Link to="/#newsletter">home page</Link>.
            </p>
          </div>
        ) : state === 'expired' ? (
          <div role="alert" className="space-y-2">
            <h2 className="text-2xl font-bold">{EXPIRED_TEXT}</h2>
            <p className="text-muted-foreground">
              A confirmation link works for 7 days, and only the newest one we sent counts. Sign up
              again on the <Link to="/#newsletter">home page</Link> and we will email you a new
              link.
            </p>
          </div>
        ) : state === 'done' ? (
          <div role="status" className="space-y-2">
            <h2 className="text-2xl font-bold">{CONFIRMED_TEXT}</h2>
            <p className="text-muted-foreground">
              Thank you! {email ?? 'Your address'} will receive our next newsletter.
            </p>
          </div>
        ) : state === 'gone' ? (
          <div role="status" className="space-y-2">
            <h2 className="text-2xl font-bold">This sign-up has ended</h2>
            <p className="text-muted-foreground">
              The address left the list or was removed. To receive the newsletter, sign up again on
              the <Link to="/#newsletter">home page</Link>.
            </p>
          </div>
        ) : (
          <Form method="post" className="space-y-4">
            <p>
              Receive the {siteName} newsletter at <strong>{email}</strong>?
            </p>
            <SubmitButton pending={navigation.state === 'submitting'} pendingLabel="Confirming...">
              Confirm subscription
            </SubmitButton>
          </Form>
        )}
      </div>
    </>
  );
}
