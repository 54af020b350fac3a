import type { LoaderFunctionArgs } from '@remix-run/node';

import { linkCardImage } from '~/files/link-card-image.server';
import { parseId } from '~/models/model-helpers.server';
import { getTrack } from '~/models/track.server';
import { notFound } from '~/platform/http-errors.server';

/**
 * GET /music/{id}/card.jpg — the track's link card picture, 1200×630 from its cover
 * (`og:image`, decision 038). The cover is public on the track page, locked or not.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const id = parseId(params.id);
  const track = id === null ? null : await getTrack(id);
  const image = track ? await linkCardImage(track.coverImage) : null;
  if (!image) throw notFound('Track not found');
  return new Response(new Uint8Array(image), {
    headers: {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(image.length),
      'Cache-Control': 'public, max-age=3600',
    },
  });
}
