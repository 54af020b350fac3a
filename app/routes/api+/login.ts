import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, postAction, postOnlyLoader } from '~/api/api.server';
import { LoginSchema } from '~/schemas/auth';
import { InvalidLoginError, logIn, TooManyAttemptsError } from '~/services/accounts.server';

/**
 * POST /api/login — JSON or form `{ username, password }`. Starts a session (Set-Cookie)
 * and answers with the user; 401 for wrong credentials.
 */
export function action({ request }: ActionFunctionArgs) {
  return postAction(request, LoginSchema, async (input) => {
    try {
      const { user, headers } = await logIn(request, input);
      return apiJson(user, { headers });
    } catch (error) {
      if (error instanceof TooManyAttemptsError)
        return apiError(429, error.message, undefined, error.headers);
      if (error instanceof InvalidLoginError) return apiError(401, error.message);
      throw error;
    }
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return postOnlyLoader(request);
}
