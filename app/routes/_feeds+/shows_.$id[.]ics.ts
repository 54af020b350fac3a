import type { LoaderFunctionArgs } from '@remix-run/node';

import { publicCacheHeaders } from '~/document/cache-headers.server';
import { findByIdParam } from '~/models/model-helpers.server';
import { getShow } from '~/models/show.server';
import { env } from '~/platform/env.server';
import { notFound } from '~/platform/http-errors.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { showIcsFileName, showsIcs } from '~/utils/seo/feeds';

/** /shows/{id}.ics — one show as an .ics download ("Add to calendar"). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const show = await findByIdParam(params.id, getShow);
  if (!show) return notFound('Show not found', { headers: { 'Cache-Control': 'no-store' } });
  const body = showsIcs({
    origin: siteOrigin(),
    siteName: env.SITE_NAME,
    shows: [show],
    calendarName: `${env.SITE_NAME}: ${show.title}`,
  });
  const fileName = showIcsFileName(show);
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
