import type { LoaderFunctionArgs } from '@remix-run/node';

import { requireAdmin } from '~/auth/auth.server';
import { invariantResponse } from '~/platform/http-errors.server';
import { statsPeriod } from '~/schemas/stats';
import { statsCsv, statsReport } from '~/services/stats.server';

/** /admin/stats.csv?days=7|30|90: the dashboard's statistics as a download (decision 024). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const days = statsPeriod(new URL(request.url).searchParams.get('days'));
  invariantResponse(days !== null, 'days must be 7, 30 or 90');
  const report = await statsReport(days);
  return new Response(statsCsv(report), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="night-shore-stats-${report.from}-to-${report.to}.csv"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
