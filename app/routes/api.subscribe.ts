import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import {
  apiJson,
  handleApi,
  honeypotFilled,
  methodNotAllowed,
  readJsonOrFormValue,
  requireMethod,
  validate,
} from '~/api/api.server';
import { enforceRateLimit } from '~/platform/rate-limit.server';
import { HONEYPOT_FIELD } from '~/schemas/common';
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
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    requireMethod(request, ['POST']);
    const body = await readJsonOrFormValue(request);
    const input = validate(SubscribeSchema, body);
    await enforceRateLimit('subscribe', request);
    if (honeypotFilled(body, HONEYPOT_FIELD)) {
      // A bot filled in the hidden field: answer as for a person, store nothing.
      return apiJson(answerBody(await decoySignUpAnswer()), { status: 201 });
    }
    const { answer } = await subscribe(input);
    return apiJson(answerBody(answer), { status: 201 });
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['POST']));
