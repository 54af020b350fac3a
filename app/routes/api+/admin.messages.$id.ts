import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminDeleteAction, adminMethodNotAllowed } from '~/api/api.server';
import { deleteContactMessage } from '~/models/contact-message.server';

/** DELETE /api/admin/messages/{id} — 204, or 404 for an unknown id. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  adminDeleteAction(request, params.id, 'Message', deleteContactMessage);

export const loader = ({ request }: LoaderFunctionArgs) =>
  adminMethodNotAllowed(request, ['DELETE']);
