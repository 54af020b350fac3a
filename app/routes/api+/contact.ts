import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { postOnlyLoader, publicFormAction } from '~/api/api.server';
import { createContactMessage } from '~/models/contact-message.server';
import { logError } from '~/platform/request-tracking.server';
import { ContactSchema } from '~/schemas/contact';
import { notifyContactMessage } from '~/services/mail.server';
import type { ContactMessageJSON } from '~/types/entities';

/** POST /api/contact — JSON (or form) `{ name, email, subject, message }`. 201 with the message. */
export function action({ request }: ActionFunctionArgs) {
  return publicFormAction(request, {
    schema: ContactSchema,
    limit: 'contact',
    async store(input) {
      const message = await createContactMessage(input);
      await notifyContactMessage(message).catch((error: unknown) => {
        logError(error, request, 'contact notification could not be queued');
      });
      return message;
    },
    decoy: async (input): Promise<ContactMessageJSON> => ({
      id: 0,
      ...input,
      createdAt: new Date().toISOString(),
    }),
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return postOnlyLoader(request);
}
