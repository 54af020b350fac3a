import { type ActionFunctionArgs, redirect } from '@remix-run/node';

import { logoutHeaders } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { logError } from '~/platform/request-tracking.server';

/**
 * POST /logout ends the session (server side too) and goes home with a toast. When the
 * session cannot be ended (the database fails), the visitor stays logged in and is told so
 * with the 'Logout failed' toast instead of the error page.
 */
export async function action({ request }: ActionFunctionArgs) {
  let headers: Headers;
  try {
    headers = await logoutHeaders(request);
  } catch (error) {
    logError(error, request, 'logout failed');
    return redirectWithToast('/', {
      type: 'error',
      title: 'Logout failed',
      description: 'Your session could not be ended. Please try again in a moment.',
    });
  }
  return redirectWithToast(
    '/',
    { type: 'success', title: 'Logged out', description: 'You have been successfully logged out' },
    { headers },
  );
}

/** Logging out is a POST; a GET (a typed URL, a prefetch) changes nothing. */
export async function loader() {
  return redirect('/');
}
