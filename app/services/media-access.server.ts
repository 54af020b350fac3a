import { getUserOfCookie } from '~/auth/auth.server';
import { PUBLIC_CACHE_CONTROL } from '~/document/cache-headers.server';
import type { MediaAccess } from '~/files/serve-uploads.server';
import { audioAccess } from '~/models/track.server';

import { countPlayStart } from './analytics.server';

/**
 * What `/uploads` (app/files/serve-uploads.server.ts, mounted by entry.server.tsx) asks of the
 * tracks, the session and the statistics: who may have an audio file (a cached read), who is
 * asking, and a play start to count.
 */
export const MEDIA_ACCESS: MediaAccess = {
  audioAccess: (url) => audioAccess(url),
  viewer: (request) => getUserOfCookie(request.headers.get('cookie')),
  countStart: (request, url) => countPlayStart(request, url),
  publicAudioCacheControl: PUBLIC_CACHE_CONTROL,
};
