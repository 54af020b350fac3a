import type { LoaderFunctionArgs } from '@remix-run/node';

import { embedResponse, parseIds, playlistTracks } from '~/embed/page.server';

/**
 * GET /embed/playlist[?ids=1,2,3&theme=light|dark&t=] — the embeddable player of a list: the
 * given tracks, else the featured ones (decision 038).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const ids = parseIds(new URL(request.url).searchParams.get('ids'));
  const tracks = ids === null ? [] : await playlistTracks(ids);
  return embedResponse(request, tracks, { list: true });
}
