import type { LoaderFunctionArgs } from '@remix-run/node';

import { publicCacheHeaders } from '~/document/cache-headers.server';
import { listBlogPostCards } from '~/models/blog-post.server';
import { env } from '~/platform/env.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { ANONYMOUS } from '~/utils/access';
import { blogRssXml } from '~/utils/seo/feeds';

/**
 * /blog/rss.xml — RSS 2.0 of the blog, newest first. The same feed for every reader (feed
 * readers have no session): items carry the excerpt, never a body, and a members-only post is
 * marked as such.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const posts = await listBlogPostCards(ANONYMOUS, { limit: 50 });
  const xml = blogRssXml({
    origin: siteOrigin(),
    siteName: env.SITE_NAME,
    description: `News, event announcements and reviews from ${env.SITE_NAME}.`,
    posts,
  });
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
