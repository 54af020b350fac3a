import type { LoaderFunctionArgs } from '@remix-run/node';

import { oembed } from '~/embed/oembed.server';

/**
 * GET /oembed?url=…&format=json&maxwidth=&maxheight= — the oEmbed 1.0 provider (decision 038):
 * 200 JSON `type: "rich"`; 400 without `url`; 404 for a URL that is not one of our embeddable
 * pages (another host included); 501 for `format=xml`. Readable from any origin.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const result = await oembed(new URL(request.url).searchParams);
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    'Cache-Control': result.status === 200 ? 'public, max-age=300' : 'no-store',
  };
  const body = result.status === 200 ? result.body : { error: result.error };
  return new Response(JSON.stringify(body), { status: result.status, headers });
}
