import { createHash } from 'node:crypto';

import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, handleApi, methodNotAllowed, requireId } from '~/api/api.server';
import { getViewer } from '~/auth/auth.server';
import { PUBLIC_CACHE_CONTROL } from '~/document/cache-headers.server';
import { getTrack } from '~/models/track.server';
import { getTrackPeaks } from '~/models/track-peaks.server';
import { isMembersOnly } from '~/utils/access';

/** As /uploads/audio/*: a member's copy is for them only, and is checked again each time. */
const MEMBERS_CACHE_CONTROL = 'private, no-cache';

/**
 * GET /api/tracks/{id}/peaks — the track's waveform, audiowaveform JSON v2 (decision 035).
 * Locked exactly like its audio (decision 017): a members-only track's peaks go to a logged-in
 * session only (401 otherwise, before any 304), never into a shared cache. 404 for an unknown
 * track, one still processing, or one without peaks yet. Public peaks are cacheable as the
 * public audio is (shared for a short while, as a track can turn members-only), with an ETag.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const id = requireId(params.id, 'Track');
    const track = await getTrack(id);
    if (!track) return apiError(404, 'Track not found');
    const membersOnly = isMembersOnly(track);
    if (membersOnly && !(await getViewer(request)).member) {
      return apiError(401, 'Members only: log in to listen to this track.', undefined, {
        'Cache-Control': 'private, no-store',
        Vary: 'Cookie',
      });
    }
    const peaks = track.audioStatus === 'ready' ? await getTrackPeaks(id, track.audioFile) : null;
    if (!peaks) return apiError(404, 'No waveform for this track yet');

    const body = JSON.stringify(peaks);
    const etag = `"${createHash('sha256').update(track.audioFile).update(body).digest('base64url').slice(0, 27)}"`;
    const headers: Record<string, string> = {
      'Cache-Control': membersOnly ? MEMBERS_CACHE_CONTROL : PUBLIC_CACHE_CONTROL,
      ETag: etag,
      ...(membersOnly ? { Vary: 'Cookie' } : {}),
    };
    const asked = request.headers.get('If-None-Match');
    if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return new Response(null, { status: 304, headers });
    }
    return apiJson(peaks, { headers });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
