import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import {
  apiError,
  handleApi,
  methodNotAllowed,
  noContent,
  requireId,
  requireMethod,
} from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';
import { deleteSubscriber } from '~/models/subscriber.server';

/** DELETE /api/admin/subscribers/{id} — 204, or 404 for an unknown id. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    requireMethod(request, ['DELETE']);
    const id = requireId(params.id, 'Subscriber');
    return (await deleteSubscriber(id)) ? noContent() : apiError(404, 'Subscriber not found');
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    return methodNotAllowed(['DELETE']);
  });
