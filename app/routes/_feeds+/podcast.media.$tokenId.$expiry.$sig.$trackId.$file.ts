import type { LoaderFunctionArgs } from '@remix-run/node';

import { serveSignedEpisode } from '~/podcast/podcast.server';

/**
 * /podcast/media/{tokenId}/{expiry}/{sig}/{id}/{file} — a private feed's enclosure, playable
 * without a session (podcast apps carry none): signed for exactly this token, expiry and file,
 * and refused once the token is revoked (decision 037).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return serveSignedEpisode(request, {
    tokenId: params.tokenId ?? '',
    expiry: params.expiry ?? '',
    sig: params.sig ?? '',
    trackId: params.trackId ?? '',
    file: params.file ?? '',
  });
}
