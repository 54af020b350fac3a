import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { listSubscribers } from '~/models/subscriber.server';
import { apiJson, handleApi, methodNotAllowed, requireAdminRequest } from '~/api/api.server';

/** GET /api/admin/subscribers — every subscriber, newest first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return apiJson(await listSubscribers());
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return methodNotAllowed(['GET']);
  });
