import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiJson, handleApi, postOnlyLoader, requireMethod } from '~/api/api.server';
import { logoutHeaders } from '~/auth/auth.server';

/** POST /api/logout — ends the session (also when there is none) and clears the cookie. */
export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => {
    requireMethod(request, ['POST']);
    return apiJson({ success: true }, { headers: await logoutHeaders(request) });
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return postOnlyLoader(request);
}
