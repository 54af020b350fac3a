import type { LoaderFunctionArgs } from '@remix-run/node';

import { publicCacheHeaders } from '~/document/cache-headers.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { robotsTxt } from '~/utils/seo/feeds';

/** /robots.txt — everything but /admin and /api, and where the sitemap is. */
export function loader({ request }: LoaderFunctionArgs) {
  return new Response(robotsTxt(siteOrigin()), {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
