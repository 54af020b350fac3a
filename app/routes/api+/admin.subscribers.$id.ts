import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminDeleteAction, adminMethodNotAllowed } from '~/api/api.server';
import { deleteSubscriber } from '~/models/subscriber.server';

/** DELETE /api/admin/subscribers/{id} — 204, or 404 for an unknown id. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  adminDeleteAction(request, params.id, 'Subscriber', deleteSubscriber);

export const loader = ({ request }: LoaderFunctionArgs) =>
  adminMethodNotAllowed(request, ['DELETE']);
