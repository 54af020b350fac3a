import type { LoaderFunctionArgs } from '@remix-run/node';

import { requireAdmin } from '~/auth/auth.server';
import { findByIdParam } from '~/models/model-helpers.server';
import { getShow } from '~/models/show.server';
import { notFound } from '~/platform/http-errors.server';
import { guestListCsv } from '~/services/shows.server';

/** /admin/shows/{id}/guest-list.csv: the guest list as a download, for the door staff. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const show = await findByIdParam(params.id, getShow);
  if (!show) throw notFound('Show not found');
  const name = `guest-list-${show.date}-${show.id}.csv`;
  return new Response(await guestListCsv(show), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
