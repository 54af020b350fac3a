import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed, handleApi } from '~/api/api.server';
import { apiListResponse } from '~/api/api-lists.server';
import { requireAdminApi } from '~/auth/auth.server';
import { contactMessageList, toContactMessageJSON } from '~/models/contact-message.server';

/**
 * GET /api/admin/messages[?limit=&cursor=] — every contact message, newest first, streamed; or
 * a page with `Link: <…>; rel="next"` (docs/api.md).
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    await requireAdminApi(request);
    return apiListResponse(request, contactMessageList(), toContactMessageJSON);
  });
}

export function action({ request }: ActionFunctionArgs) {
  return adminMethodNotAllowed(request, ['GET']);
}
