import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed, handleApi } from '~/api/api.server';
import { apiListResponse } from '~/api/api-lists.server';
import { requireAdminApi } from '~/auth/auth.server';
import { subscriberList, toSubscriberJSON } from '~/models/subscriber.server';

/**
 * GET /api/admin/subscribers[?limit=&cursor=] — every subscriber, newest first, streamed; or a
 * page with `Link: <…>; rel="next"` (docs/api.md).
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    await requireAdminApi(request);
    return apiListResponse(request, subscriberList(), toSubscriberJSON);
  });
}

export function action({ request }: ActionFunctionArgs) {
  return adminMethodNotAllowed(request, ['GET']);
}
