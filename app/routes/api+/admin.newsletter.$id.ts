import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed, apiError, apiJson, handleApi, requireId } from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';
import { getNewsletter, newsletterProgress } from '~/models/newsletter.server';

/**
 * GET /api/admin/newsletter/{id} — `{ id, subject, state, total, sent, failed, queued,
 * skipped }`; state is queued, sending, sent or failed. 404 for an unknown id.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    await requireAdminApi(request);
    const id = requireId(params.id, 'Newsletter');
    const newsletter = await getNewsletter(id);
    if (!newsletter) return apiError(404, 'Newsletter not found');
    return apiJson(await newsletterProgress(newsletter));
  });
}

export function action({ request }: ActionFunctionArgs) {
  return adminMethodNotAllowed(request, ['GET']);
}
