import type { LoaderFunctionArgs } from '@remix-run/node';

import { requireAdmin } from '~/auth/auth.server';

import { activeEmailsResponse } from './newsletter/export.server';

/**
 * /admin/newsletter/emails.txt?q=&status=: the active addresses matching the list's search,
 * comma-separated, streamed: what Copy All Emails fetches when clicked (issue 37).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return activeEmailsResponse(new URL(request.url));
}
