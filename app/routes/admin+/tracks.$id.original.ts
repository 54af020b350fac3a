import type { LoaderFunctionArgs } from '@remix-run/node';

import { requireAdmin } from '~/auth/auth.server';
import { mediaKeyFromUrl, mediaStore } from '~/files/media-store.server';
import { serveFile } from '~/files/serve-file.server';
import { parseId } from '~/models/model-helpers.server';
import { getTrack } from '~/models/track.server';
import { getTrackAudioAdmin } from '~/models/track-audio.server';
import { notFound } from '~/platform/http-errors.server';

/**
 * /admin/tracks/{id}/original — the track's uploaded original (the WAV, or the MP3 above
 * 320 kbps, that a stream replaced; or the upload of a track still processing or failed), as
 * a download for administrators only (decision 035). Never cached outside the admin's browser.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const track = id === null ? null : await getTrack(id);
  const audio = track ? await getTrackAudioAdmin(track.id) : null;
  if (!track || !audio) throw notFound('Track not found');
  const url = audio.originalAudioFile ?? track.audioFile;
  const key = mediaKeyFromUrl(url);
  const response = await serveFile(request, {
    store: mediaStore(),
    key,
    cacheControl: 'private, no-store',
  });
  if (response.ok && key) {
    const ext = key.slice(key.lastIndexOf('.'));
    const name = `${track.title.replace(/[^\w .-]+/g, '_').slice(0, 80) || 'track'} (original)${ext}`;
    response.headers.set(
      'Content-Disposition',
      `attachment; filename="${name.replace(/"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
  }
  response.headers.set('Vary', 'Cookie');
  return response;
}
