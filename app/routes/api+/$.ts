import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, handleApi } from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';

/**
 * Any other /api path, whatever the method: a JSON 404. Under /api/admin the guard runs
 * first, so the admin surface cannot be mapped without a session.
 */
async function notFound(request: Request): Promise<Response> {
  return handleApi(request, async () => {
    if (/^\/api\/admin(\/|$)/.test(new URL(request.url).pathname)) await requireAdminApi(request);
    return apiError(404, 'Not found');
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return notFound(request);
}
export function action({ request }: ActionFunctionArgs) {
  return notFound(request);
}
