import type { LoaderFunctionArgs } from '@remix-run/node';

import { notFound } from '~/platform/http-errors.server';
import { episodeCover } from '~/podcast/podcast.server';

/**
 * /podcast/covers/{id}/{version}.jpg — a mix's cover as a 1400 px square (itunes:image). The
 * version names the cover file, so a new cover is a new URL and this one never changes.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const jpeg = await episodeCover(params.trackId ?? '', params.file ?? '');
  if (!jpeg) return notFound();
  return new Response(new Uint8Array(jpeg), {
    headers: {
      'Content-Type': 'image/jpeg',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=31536000, immutable',
    },
  });
}
