import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { logoutHeaders } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';

/** POST /logout ends the session (server side too) and goes home with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const headers = await logoutHeaders(request);
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
