/**
 * Numbers the browser and the server must agree on, in one client-safe module without imports:
 * the site's bundles, the embed's own script (app/embed/player.ts, bundled by
 * scripts/build-embed.ts) and the server all read them from here (decision 049).
 */

/**
 * The embed's two sizes (decision 038): a card, or a card and the list. The oEmbed answer, the
 * player card (`twitter:player:*`) and the share dialog's code use them; widths 280–1200 px.
 */
export const EMBED_SIZES = {
  compact: { width: 600, height: 120 },
  list: { width: 600, height: 400 },
} as const;
export type EmbedSize = keyof typeof EMBED_SIZES;
export const EMBED_MIN_WIDTH = 280;
export const EMBED_MAX_WIDTH = 1200;

/**
 * A play counts once the track has sounded this long (time actually heard: seeks do not
 * count), or reached its end (decision 024): the site's player and the embed's script.
 */
export const PLAY_AFTER_SECONDS = 30;

/**
 * How long a play token is accepted after it was issued (decision 047). The site's player asks
 * for a new one an hour before (PLAY_TOKEN_REUSE_MS), so a report never carries a stale one.
 */
export const PLAY_TOKEN_TTL_MS = 6 * 60 * 60 * 1000;
export const PLAY_TOKEN_REUSE_MS = PLAY_TOKEN_TTL_MS - 60 * 60 * 1000;

/**
 * The release types the admin chooses from; Mix, Live set and Radio show are long-form sets.
 * Here, not beside the track schema, so that a page that only lists tracks (/music) does not
 * ship zod to the browser.
 */
export const TRACK_TYPES = ['Single', 'EP', 'Album', 'Mix', 'Live set', 'Radio show'] as const;
export const MIX_TYPES: readonly string[] = ['Mix', 'Live set', 'Radio show'];

/** Release types of older data, and what they are stored as now (decision 034). */
export const LEGACY_TRACK_TYPES: Readonly<Record<string, (typeof TRACK_TYPES)[number]>> = {
  Remix: 'Single',
  Live: 'Live set',
};
