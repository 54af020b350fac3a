import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';

import { EmailLinkOutcome, EmailLinkPage, EmailLinkQuestion } from '~/components/site/email-link';
import { maskEmail, verifyLinkToken } from '~/mail/tokens.server';
import { getSubscriber, unsubscribeSubscriber } from '~/models/subscriber.server';
import { HTTP_STATUS } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { linkPageMeta } from '~/utils/seo/seo';

export const meta = linkPageMeta('Unsubscribe');

const UNSUBSCRIBED_TEXT = 'You have been unsubscribed';
const INVALID_LINK =
  'This unsubscribe link is not valid. Please use the link from one of our emails as it is, or write to us and we will remove your address.';

/**
 * The link in every newsletter (and its List-Unsubscribe header). GET shows whose address
 * it is and an Unsubscribe button; POST (that button, or a mail client's one-click
 * `List-Unsubscribe=One-Click`, RFC 8058) takes the address off the list. A token that is
 * not ours answers 400 and changes nothing. Unsubscribe links never expire, also those from
 * before tokens carried an issue time (decision 029), and they only ever take an address off:
 * nothing here signs it up again (that takes a new sign-up and its confirmation link).
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const id = verifyLinkToken('unsubscribe', params.token ?? '');
  if (!id) return data({ state: 'invalid' as const }, { status: HTTP_STATUS.badRequest });
  const subscriber = await getSubscriber(id);
  if (!subscriber) return { state: 'gone' as const };
  return {
    state: subscriber.status === 'unsubscribed' ? ('done' as const) : ('ask' as const),
    email: maskEmail(subscriber.email),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  // The body is the button's empty form or a mail client's `List-Unsubscribe=One-Click`:
  // the token in the URL decides, the body is only read (a form, at most 16 KB).
  await readForm(request, { maxBytes: 16 * 1024 });
  const id = verifyLinkToken('unsubscribe', params.token ?? '');
  if (!id) return data({ state: 'invalid' as const }, { status: HTTP_STATUS.badRequest });
  const subscriber = await unsubscribeSubscriber(id);
  return { state: subscriber ? ('done' as const) : ('gone' as const) };
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const state = acted?.state ?? loaded.state;
  const email = 'email' in loaded ? loaded.email : null;
  return (
    <EmailLinkPage intro="Unsubscribe" testId="unsubscribe">
      {state === 'invalid' ? (
        <EmailLinkOutcome role="alert" title="Invalid link">
          {INVALID_LINK}
        </EmailLinkOutcome>
      ) : state === 'done' ? (
        <EmailLinkOutcome role="status" title={UNSUBSCRIBED_TEXT}>
          {email ? `${email} will` : 'Your address will'} receive no more newsletters from us.
          Changed your mind? Sign up again on the <Link to="/#newsletter">home page</Link>: we will
          email you a link to confirm it is you.
        </EmailLinkOutcome>
      ) : state === 'gone' ? (
        <EmailLinkOutcome role="status" title={UNSUBSCRIBED_TEXT}>
          This address is no longer on our list: you will receive no more newsletters.
        </EmailLinkOutcome>
      ) : (
        <EmailLinkQuestion label="Unsubscribe" pendingLabel="Unsubscribing...">
          Stop sending the newsletter to <strong>{email}</strong>?
        </EmailLinkQuestion>
      )}
    </EmailLinkPage>
  );
}
