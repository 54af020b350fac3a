import type { LoaderFunctionArgs } from '@remix-run/node';

import { themeStylesheet } from '~/document/theme-stylesheet.server';
import { getTheme } from '~/models/theme.server';

/**
 * GET /theme.css?v=<version> — the theme's fonts and colour variables (issue 19). The version
 * is the stylesheet's content hash, so a URL with the current one is cached for a year; any other
 * URL (an old version from a page cached before an admin changed the theme, or none) gets the
 * current stylesheet, revalidated on every use.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const sheet = themeStylesheet(await getTheme());
  const etag = `"${sheet.version}"`;
  const current = new URL(request.url).searchParams.get('v') === sheet.version;
  const headers = {
    'Content-Type': 'text/css; charset=utf-8',
    'Cache-Control': current
      ? 'public, max-age=31536000, immutable'
      : 'public, max-age=0, must-revalidate',
    ETag: etag,
  };
  if (request.headers.get('If-None-Match') === etag) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(sheet.css, { headers });
}
