import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { AlreadySubscribedError } from '~/models/subscriber.server';
import { subscribe } from '~/services/mail.server';
import { HONEYPOT_FIELD } from '~/schemas/common';
import { SubscribeSchema } from '~/schemas/subscriber';
import type { SubscriberJSON } from '~/types/entities';
import {
  apiError,
  apiJson,
  handleApi,
  honeypotFilled,
  methodNotAllowed,
  readJsonOrFormValue,
  requireMethod,
  validate,
} from '~/api/api.server';
import { enforceRateLimit } from '~/server/rate-limit.server';

/**
 * POST /api/subscribe — JSON (or form) `{ name?, email }`. 201 with the subscriber (status
 * 'pending' when sign-ups must be confirmed by email); 409 when the email is already an
 * active subscriber (case-insensitively).
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    requireMethod(request, ['POST']);
    const body = await readJsonOrFormValue(request);
    const input = validate(SubscribeSchema, body);
    await enforceRateLimit('subscribe', request);
    if (honeypotFilled(body, HONEYPOT_FIELD)) {
      // A bot filled in the hidden field: answer as for a person, store nothing.
      const email = input.email.trim();
      const decoy: SubscriberJSON = {
        id: 0,
        name: input.name?.trim() || email.split('@')[0] || email,
        email,
        status: 'active',
        createdAt: new Date().toISOString(),
      };
      return apiJson(decoy, { status: 201 });
    }
    try {
      const { subscriber } = await subscribe(input, request);
      return apiJson(subscriber, { status: 201 });
    } catch (error) {
      if (error instanceof AlreadySubscribedError) {
        return apiError(409, error.message, { email: [error.message] });
      }
      throw error;
    }
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['POST']));
