import type { LoaderFunctionArgs } from '@remix-run/node';

import { publicCacheHeaders } from '~/document/cache-headers.server';
import { listShows } from '~/models/show.server';
import { env } from '~/platform/env.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { showsIcs } from '~/utils/seo/feeds';

/** /shows.ics — an iCalendar feed of every show, to subscribe to from a calendar app. */
export async function loader({ request }: LoaderFunctionArgs) {
  const shows = await listShows();
  const body = showsIcs({ origin: siteOrigin(), siteName: env.SITE_NAME, shows });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="night-shore-shows.ics"',
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
