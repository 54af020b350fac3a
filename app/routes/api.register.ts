import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { RegisterFields } from '~/schemas/auth';
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
import { AuthError, authenticator, createUserSession } from '~/auth/auth.server';
import { enforceRateLimit } from '~/server/rate-limit.server';

const USERNAME_TAKEN = 'Username already exists';

/**
 * POST /api/register — JSON or form `{ username, password }`. Creates a plain user (an
 * `isAdmin` in the body is ignored), starts a session and answers 201 with the user;
 * 409 when the username is taken.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    requireMethod(request, ['POST']);
    requireSameOrigin(request);
    const input = validate(RegisterFields, await readJsonOrFormValue(request));
    await enforceRateLimit('register', request);
    let user;
    try {
      user = await authenticator.authenticate('register', credentialsRequest(request, input));
    } catch (error) {
      if (error instanceof AuthError) {
        if (error.message === USERNAME_TAKEN) {
          return apiError(409, USERNAME_TAKEN, { username: [USERNAME_TAKEN] });
        }
        return apiError(400, error.message);
      }
      throw error;
    }
    const headers = await createUserSession(request, user);
    return apiJson(user, { status: 201, headers });
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['POST']));
