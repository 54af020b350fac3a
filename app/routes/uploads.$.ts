import type { LoaderFunctionArgs } from '@remix-run/node';

import { getUser } from '~/auth/auth.server';
import { PUBLIC_CACHE_CONTROL } from '~/document/cache-headers.server';
import { mediaKeyFromUrl, mediaStore } from '~/files/media-store.server';
import { serveFile } from '~/files/serve-file.server';
import { audioAccess } from '~/models/track.server';
import { countPlayStart } from '~/services/analytics.server';

/** Caches may keep a members-only file for its member only, and must ask again each time. */
const MEMBERS_AUDIO_CACHE_CONTROL = 'private, no-cache';

/**
 * /uploads/* — uploaded covers, images and audio from the media store (MEDIA_STORAGE), with byte ranges (so audio
 * can seek), validators and caching. Remix routes GET and HEAD here.
 *
 * Audio files are checked against their tracks on every request, Range and conditional ones
 * included (decision 017): the file of a members-only track goes to a logged-in session only
 * (401 otherwise, before any byte, 304 or 206), never into a shared cache. Audio of public tracks
 * is shared-cacheable for a short while only, as a track can turn members-only; images keep
 * their year-long immutable caching (a cover is shown to every visitor).
 *
 * A track's kept original and the upload of a track whose stream is still being made (or
 * failed) go to administrators only (decision 035): anyone else gets a 404, as for no file.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // The file, as the tracks name it (`/uploads/%61udio/…` is the audio folder too): each
  // segment decoded once; null for anything that is not a media file (a 404).
  const key = mediaKeyFromUrl(new URL(request.url).pathname);
  const store = mediaStore();
  if (key === null || !key.startsWith('audio/')) return serveFile(request, { store, key });
  const path = `/uploads/${key}`;
  const access = await audioAccess(path);
  if (access === 'public') {
    return countedStart(
      request,
      path,
      await serveFile(request, { store, key, cacheControl: PUBLIC_CACHE_CONTROL }),
    );
  }
  const user = await getUser(request);
  if (access === 'admin') {
    if (!user?.isAdmin) {
      return new Response('Not Found', {
        status: 404,
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          'Cache-Control': 'private, no-store',
          Vary: 'Cookie',
          'X-Content-Type-Options': 'nosniff',
        },
      });
    }
    const response = await serveFile(request, { store, key, cacheControl: 'private, no-store' });
    response.headers.set('Vary', 'Cookie');
    return response;
  }
  if (!user) {
    return new Response('Members only: log in to listen to this track.', {
      status: 401,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'private, no-store',
        Vary: 'Cookie',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }
  const response = await serveFile(request, {
    store,
    key,
    cacheControl: MEMBERS_AUDIO_CACHE_CONTROL,
  });
  response.headers.set('Vary', 'Cookie');
  return countedStart(request, path, response);
}

/** Audio sent from its first byte is a play start (decision 024: the only sign without JS). */
function countedStart(request: Request, path: string, response: Response): Response {
  if (response.status === 200 || response.status === 206) countPlayStart(request, path);
  return response;
}
