import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { postOnlyLoader, publicFormAction } from '~/api/api.server';
import { SubscribeSchema } from '~/schemas/subscriber';
import { decoySignUpAnswer, type SignUpAnswer, subscribe } from '~/services/mail.server';
import { CONFIRM_TOAST, SUBSCRIBED_TOAST } from '~/services/public-forms.server';

/** The whole answer: built from the settings only, never from a stored subscriber. */
const answerBody = (status: SignUpAnswer) => ({
  status,
  message: status === 'pending' ? CONFIRM_TOAST.description : SUBSCRIBED_TOAST.description,
});

/**
 * POST /api/subscribe — JSON (or form) `{ name?, email }`. 201 `{ status, message }` for
 * every valid sign-up, new address or known (decision 029): `status` is 'pending' when
 * sign-ups must be confirmed by email, else 'subscribed'. What a known address needs (its
 * confirmation link, a note that it is already subscribed) goes to that address by email.
 */
export function action({ request }: ActionFunctionArgs) {
  return publicFormAction(request, {
    schema: SubscribeSchema,
    limit: 'subscribe',
    store: async (input) => answerBody((await subscribe(input)).answer),
    decoy: async () => answerBody(await decoySignUpAnswer()),
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return postOnlyLoader(request);
}
