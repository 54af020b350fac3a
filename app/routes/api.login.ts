import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { LoginSchema } from '~/schemas/auth';
import {
  apiError,
  apiJson,
  credentialsRequest,
  handleApi,
  methodNotAllowed,
  readJsonOrFormValue,
  requireMethod,
  requireSameOrigin,
  validate,
} from '~/api/api.server';
import { AuthError, INVALID_LOGIN, authenticator, createUserSession } from '~/auth/auth.server';
import { enforceRateLimit, resetLoginLimit } from '~/server/rate-limit.server';

/**
 * POST /api/login — JSON or form `{ username, password }`. Starts a session (Set-Cookie)
 * and answers with the user; 401 for wrong credentials.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    requireMethod(request, ['POST']);
    requireSameOrigin(request);
    const input = validate(LoginSchema, await readJsonOrFormValue(request));
    await enforceRateLimit('login', request, { username: input.username });
    let user;
    try {
      user = await authenticator.authenticate('login', credentialsRequest(request, input));
    } catch (error) {
      if (error instanceof AuthError) return apiError(401, INVALID_LOGIN);
      throw error;
    }
    await resetLoginLimit(request, input.username);
    const headers = await createUserSession(request, user);
    return apiJson(user, { headers });
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['POST']));
