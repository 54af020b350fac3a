import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import {
  apiError,
  handleApi,
  noContent,
  postOnlyLoader,
  readJsonBody,
  requireMethod,
} from '~/api/api.server';
import { getTrack } from '~/models/track.server';
import { PlaySchema } from '~/schemas/stats';
import { countPlay } from '~/services/analytics.server';
import { verifyPlayToken } from '~/services/play-token.server';

/**
 * POST /api/plays — JSON `{ trackId, token }` (or `{ trackId, embed }` from an embed), sent by
 * the player with `navigator.sendBeacon` once a track has sounded for 30 s or reached its end
 * (decision 024). 204; counted once per client and track in 30 minutes, bots never, and only
 * with a play token issued to the same client (services/play-token.server.ts: a report
 * without one is answered alike and not counted). 400 for a bad body, 404 `Track not found`.
 *
 * The embed (decision 038) sends it from a sandboxed frame, an opaque origin: a CORS request
 * with `Origin: null` (the trust boundary lets exactly this endpoint through), credentials
 * omitted, after a preflight (OPTIONS) for its JSON body. `embed` is the page's signed token
 * of the embedding site's host; a play with a valid one also counts for that host. The answer
 * carries no cookie and nothing to read.
 */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
};

export async function action({ request }: ActionFunctionArgs) {
  const response = await handleApi(request, async () => {
    requireMethod(request, ['POST']);
    const { trackId, token, embed } = await readJsonBody(request, PlaySchema);
    if (!(await getTrack(trackId))) return apiError(404, 'Track not found');
    const grant = verifyPlayToken(embed ?? token, request);
    if (grant) countPlay(request, trackId, grant.host ?? undefined);
    return noContent();
  });
  response.headers.set('Access-Control-Allow-Origin', '*');
  return response;
}

/** Remix hands OPTIONS (the embed's CORS preflight) to the loader. */
export function loader({ request }: LoaderFunctionArgs) {
  return request.method.toUpperCase() === 'OPTIONS' ? noContent(CORS) : postOnlyLoader(request);
}
