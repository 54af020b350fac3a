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
import { deleteContactMessage } from '~/models/contact-message.server';

/** DELETE /api/admin/messages/{id} — 204, or 404 for an unknown id. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    requireMethod(request, ['DELETE']);
    const id = requireId(params.id, 'Message');
    return (await deleteContactMessage(id)) ? noContent() : apiError(404, 'Message not found');
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    return methodNotAllowed(['DELETE']);
  });
