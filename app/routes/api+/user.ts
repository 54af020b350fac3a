import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { getUser } from '~/auth/auth.server';

/** GET /api/user — the logged-in user `{ id, username, isAdmin }`, or 401. */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const user = await getUser(request);
    if (!user) return apiError(401, 'Not authenticated');
    return apiJson({ id: user.id, username: user.username, isAdmin: user.isAdmin });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
