import { channelCover } from '~/podcast/podcast.server';

/** /podcast/cover.jpg — the podcast's square cover (1400 px, from the site's logo). */
export async function loader() {
  return new Response(new Uint8Array(await channelCover()), {
    headers: {
      'Content-Type': 'image/jpeg',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=86400',
    },
  });
}
