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
import { createContactMessage } from '~/models/contact-message.server';
import { enforceRateLimit } from '~/platform/rate-limit.server';
import { logError } from '~/platform/request-tracking.server';
import { HONEYPOT_FIELD } from '~/schemas/common';
import { ContactSchema } from '~/schemas/contact';
import { notifyContactMessage } from '~/services/mail.server';
import type { ContactMessageJSON } from '~/types/entities';

/** POST /api/contact — JSON (or form) `{ name, email, subject, message }`. 201 with the message. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    requireMethod(request, ['POST']);
    const body = await readJsonOrFormValue(request);
    const input = validate(ContactSchema, body);
    await enforceRateLimit('contact', request);
    if (honeypotFilled(body, HONEYPOT_FIELD)) {
      // A bot filled in the hidden field: answer as for a person, store nothing.
      const decoy: ContactMessageJSON = { id: 0, ...input, createdAt: new Date().toISOString() };
      return apiJson(decoy, { status: 201 });
    }
    const message = await createContactMessage(input);
    await notifyContactMessage(message).catch((error: unknown) => {
      logError(error, request, 'contact notification could not be queued');
    });
    return apiJson(message, { status: 201 });
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['POST']));
