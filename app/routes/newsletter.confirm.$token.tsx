import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { PageHeader } from '~/components/site/section-heading';
import { SubmitButton } from '~/components/ui/button';
import { maskEmail, verifyLinkToken } from '~/mail/tokens.server';
import { confirmSubscriber, getSubscriber } from '~/models/subscriber.server';
import { readForm } from '~/server/request-body.server';

export const meta: MetaFunction = () => [
  { title: 'Confirm your subscription — Night Shore' },
  { name: 'robots', content: 'noindex' },
];

export const CONFIRMED_TEXT = 'Your subscription is confirmed';

/**
 * The link in the confirmation email (double opt-in). GET shows the address and a Confirm
 * button; the POST makes the subscriber active. Opening the link alone changes nothing,
 * so a mail scanner that follows links cannot subscribe anyone (decision 016).
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const id = verifyLinkToken('confirm', params.token ?? '');
  if (!id) return data({ state: 'invalid' as const }, { status: 400 });
  const subscriber = await getSubscriber(id);
  if (!subscriber || subscriber.status === 'unsubscribed' || subscriber.status === 'bounced') {
    return { state: 'gone' as const };
  }
  return {
    state: subscriber.status === 'active' ? ('done' as const) : ('ask' as const),
    email: maskEmail(subscriber.email),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request, { maxBytes: 16 * 1024 });
  const id = verifyLinkToken('confirm', params.token ?? '');
  if (!id) return data({ state: 'invalid' as const }, { status: 400 });
  const subscriber = await confirmSubscriber(id);
  return { state: subscriber ? ('done' as const) : ('gone' as const) };
}

export default function ConfirmSubscription() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const navigation = useNavigation();
  const state = acted?.state ?? loaded.state;
  const email = 'email' in loaded ? loaded.email : null;
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
              Receive the Night Shore newsletter at <strong>{email}</strong>?
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
