import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed, apiJson, handleApi } from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';
import { listSubscribers } from '~/models/subscriber.server';

/** GET /api/admin/subscribers — every subscriber, newest first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    return apiJson(await listSubscribers());
  });

export const action = ({ request }: ActionFunctionArgs) => adminMethodNotAllowed(request, ['GET']);
