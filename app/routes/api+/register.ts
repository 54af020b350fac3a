import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, postAction, postOnlyLoader } from '~/api/api.server';
import { RegisterFields } from '~/schemas/auth';
import {
  AccountInputError,
  register,
  TooManyAttemptsError,
  UsernameTakenError,
} from '~/services/accounts.server';

/**
 * POST /api/register — JSON or form `{ username, password }`. Creates a plain user (an
 * `isAdmin` in the body is ignored), starts a session and answers 201 with the user;
 * 409 when the username is taken.
 */
export function action({ request }: ActionFunctionArgs) {
  return postAction(request, RegisterFields, async (input) => {
    try {
      const { user, headers } = await register(request, input);
      return apiJson(user, { status: 201, headers });
    } catch (error) {
      if (error instanceof TooManyAttemptsError)
        return apiError(429, error.message, undefined, error.headers);
      if (error instanceof UsernameTakenError)
        return apiError(409, error.message, { username: [error.message] });
      if (error instanceof AccountInputError) return apiError(400, error.message);
      throw error;
    }
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return postOnlyLoader(request);
}
