import type { LoaderFunctionArgs } from '@remix-run/node';

import { publicCacheHeaders } from '~/document/cache-headers.server';
import { listBlogPostCards } from '~/models/blog-post.server';
import { listArchivedNewsletters } from '~/models/newsletter.server';
import { listShows } from '~/models/show.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { ANONYMOUS } from '~/utils/access';
import { sitemapEntries, sitemapXml } from '~/utils/seo/feeds';

/**
 * /sitemap.xml — every public page, every blog post a visitor without an account can read
 * (members-only posts stay out until they turn public), every show (as /shows#show-{id}) and
 * the newsletter archive with its issues.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const [posts, shows, newsletters] = await Promise.all([
    listBlogPostCards(ANONYMOUS).then((all) => all.filter((p) => !p.locked)),
    listShows(),
    listArchivedNewsletters(),
  ]);
  const xml = sitemapXml(siteOrigin(), sitemapEntries({ posts, shows, newsletters }));
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
