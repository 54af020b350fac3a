import type { LoaderFunctionArgs } from '@remix-run/node';

import { servePublicEpisode } from '~/podcast/podcast.server';

/**
 * /podcast/episodes/{id}/{file} — a public mix's audio as /podcast.xml's enclosure: the bytes of
 * /uploads (HEAD, Range, 206, 304), counted as a feed download (decision 037). Remix routes GET
 * and HEAD here.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return servePublicEpisode(request, { trackId: params.trackId ?? '', file: params.file ?? '' });
}
