import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminDeleteAction, adminMethodNotAllowed } from '~/api/api.server';
import { deleteSubscriber } from '~/models/subscriber.server';

/** DELETE /api/admin/subscribers/{id} — 204, or 404 for an unknown id. */
export function action({ request, params }: ActionFunctionArgs) {
  return adminDeleteAction(request, params.id, 'Subscriber', deleteSubscriber);
}

export function loader({ request }: LoaderFunctionArgs) {
  return adminMethodNotAllowed(request, ['DELETE']);
}
