import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import {
  apiError,
  handleApi,
  methodNotAllowed,
  noContent,
  readJsonBody,
  requireMethod,
} from '~/api/api.server';
import { getTrack } from '~/models/track.server';
import { PlaySchema } from '~/schemas/stats';
import { countPlay } from '~/services/analytics.server';

/**
 * POST /api/plays — JSON `{ trackId }`, sent by the player with `navigator.sendBeacon` once a
 * track has sounded for 30 s or reached its end (decision 024). 204; counted once per client
 * and track in 30 minutes, bots never. 400 for a bad body, 404 `Track not found`.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => {
    requireMethod(request, ['POST']);
    const { trackId } = await readJsonBody(request, PlaySchema);
    if (!(await getTrack(trackId))) return apiError(404, 'Track not found');
    countPlay(request, trackId);
    return noContent();
  });

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['POST']));
