import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminDeleteAction, adminMethodNotAllowed } from '~/api/api.server';
import { deleteContactMessage } from '~/models/contact-message.server';

/** DELETE /api/admin/messages/{id} — 204, or 404 for an unknown id. */
export function action({ request, params }: ActionFunctionArgs) {
  return adminDeleteAction(request, params.id, 'Message', deleteContactMessage);
}

export function loader({ request }: LoaderFunctionArgs) {
  return adminMethodNotAllowed(request, ['DELETE']);
}
