import type { LoaderFunctionArgs } from '@remix-run/node';

import { getTrack } from '~/models/track.server';
import { notFound } from '~/platform/http-errors.server';
import { chaptersJson } from '~/podcast/rss';

/**
 * /music/{id}/chapters.json — a track's tracklist as Podcasting 2.0 chapters (version 1.2.0).
 * 404 for an unknown id or a track without a tracklist. Served for members-only tracks too: a
 * tracklist is metadata, shown with the title on the locked track's page, not audio
 * (decision 037).
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const id = /^\d{1,10}$/.test(params.id ?? '') ? Number(params.id) : null;
  const track = id === null ? null : await getTrack(id);
  if (!track || track.tracklist.length === 0) return notFound();
  return new Response(JSON.stringify(chaptersJson(track.tracklist)), {
    headers: {
      'Content-Type': 'application/json+chapters; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'public, max-age=0, s-maxage=30, stale-while-revalidate=60',
    },
  });
}
