import type { LoaderFunctionArgs } from '@remix-run/node';

import { requireAdmin } from '~/auth/auth.server';

import { subscriberCsvResponse } from './newsletter/export.server';

/**
 * /admin/newsletter/subscribers.csv?q=&status=: every subscriber matching the list's search and
 * status filter (all pages), newest first, streamed from a cursor (issue 37).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return subscriberCsvResponse(new URL(request.url));
}
