import type { LoaderFunctionArgs } from '@remix-run/node';

import { notFound } from '~/platform/http-errors.server';
import { privatePodcastXml } from '~/podcast/podcast.server';

const PRIVATE = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };

/**
 * /podcast/private/{token}.xml — a member's private podcast feed (decision 037): public and
 * members-only mixes, each enclosure a signed, expiring URL. 404 for an unknown or revoked
 * token, or a deleted account.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const match = /^([A-Za-z0-9_-]+)\.xml$/.exec(params.file ?? '');
  const xml = match ? await privatePodcastXml(match[1]!) : null;
  if (xml === null) return notFound('Not Found', { headers: PRIVATE });
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ...PRIVATE,
    },
  });
}
