import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed, apiError, apiJson, handleApi } from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';
import { statsPeriod } from '~/schemas/stats';
import { statsReport } from '~/services/stats.server';

/**
 * GET /api/admin/stats?days=7|30|90 — the dashboard's statistics as JSON (decision 024):
 * `{ days, from, to, daily, totals, topTracks, topPages, topReferrers, subscribers,
 * newsletters }`. 400 for another period.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    await requireAdminApi(request);
    const days = statsPeriod(new URL(request.url).searchParams.get('days'));
    if (days === null) return apiError(400, 'days must be 7, 30 or 90');
    return apiJson(await statsReport(days), { headers: { 'Cache-Control': 'private, no-store' } });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return adminMethodNotAllowed(request, ['GET']);
}
