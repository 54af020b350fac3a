import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { listContactMessages } from '~/models/contact-message.server';
import { apiJson, handleApi, methodNotAllowed, requireAdminRequest } from '~/api/api.server';

/** GET /api/admin/messages — every contact message, newest first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return apiJson(await listContactMessages());
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminRequest(request);
    return methodNotAllowed(['GET']);
  });
