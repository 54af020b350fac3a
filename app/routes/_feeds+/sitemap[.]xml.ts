import type { LoaderFunctionArgs } from '@remix-run/node';

import { publicCacheHeaders } from '~/document/cache-headers.server';
import { notFound } from '~/platform/http-errors.server';
import { sitemapFile } from '~/services/sitemap.server';

/**
 * /sitemap.xml — every public page, every blog post a visitor without an account can read
 * (members-only posts stay out until they turn public), every show (as /shows#show-{id}) and
 * the newsletter archive with its issues. Past 50,000 URLs, a sitemap index of
 * /sitemap.xml?page=N (services/sitemap.server.ts, decision 045).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get('page');
  if (raw !== null && !/^[1-9]\d{0,5}$/.test(raw)) throw notFound();
  const xml = await sitemapFile(raw === null ? null : Number(raw));
  if (xml === null) throw notFound();
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ...publicCacheHeaders(request),
    },
  });
}
