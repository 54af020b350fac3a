import type { LoaderFunctionArgs } from '@remix-run/node';

import { publicCacheHeaders } from '~/document/cache-headers.server';
import { listShowsAround } from '~/models/show.server';
import { env } from '~/platform/env.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { showsIcs } from '~/utils/seo/feeds';
import { siteToday } from '~/utils/time';

/** Past shows stay in the calendar this many days (decision 045). */
const PAST_DAYS = 365;
/** At most this many upcoming and this many past shows (the soonest, the most recent). */
const MAX_UPCOMING = 500;
const MAX_PAST = 200;

/**
 * /shows.ics — an iCalendar feed to subscribe to from a calendar app: every upcoming show and
 * those of the last PAST_DAYS days, bounded (decision 045); a single show's .ics stays at
 * /shows/{id}.ics.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const now = new Date();
  const shows = await listShowsAround({
    today: siteToday(now),
    since: siteToday(new Date(now.getTime() - PAST_DAYS * 86_400_000)),
    upcoming: MAX_UPCOMING,
    past: MAX_PAST,
  });
  const body = showsIcs({ origin: siteOrigin(), siteName: env.SITE_NAME, shows, now });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="night-shore-shows.ics"',
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
