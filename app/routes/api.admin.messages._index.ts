import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed, apiJson, handleApi } from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';
import { listContactMessages } from '~/models/contact-message.server';

/** GET /api/admin/messages — every contact message, newest first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    return apiJson(await listContactMessages());
  });

export const action = ({ request }: ActionFunctionArgs) => adminMethodNotAllowed(request, ['GET']);
