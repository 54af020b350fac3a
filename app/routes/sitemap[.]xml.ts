import type { LoaderFunctionArgs } from '@remix-run/node';
import { listBlogPosts } from '~/models/blog-post.server';
import { listShows } from '~/models/show.server';
import { publicCacheHeaders, siteOrigin } from '~/document/cache-headers.server';
import { sitemapEntries, sitemapXml } from '~/utils/seo/feeds';

/** /sitemap.xml — every public page, every blog post and every show (as /shows#show-{id}). */
export async function loader({ request }: LoaderFunctionArgs) {
  const [posts, shows] = await Promise.all([listBlogPosts(), listShows()]);
  const xml = sitemapXml(siteOrigin(request), sitemapEntries({ posts, shows }));
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
