import type { LoaderFunctionArgs } from '@remix-run/node';

import { publicCacheHeaders } from '~/document/cache-headers.server';
import { publicPodcastXml } from '~/podcast/podcast.server';

/**
 * /podcast.xml — the podcast feed of the public mixes (decision 037): RSS 2.0 with the Apple
 * and Podcasting 2.0 namespaces. The same feed for every reader: members-only mixes are in
 * each member's private feed (/account), never here.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return new Response(await publicPodcastXml(), {
    headers: {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
