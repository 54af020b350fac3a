/**
 * The icons of the public site and the player, and of the admin, by name. Their shapes are not
 * in the pages' JavaScript: `npm run icons` (scripts/icons.ts) draws every one of them, from the
 * npm packages below (installed on demand into tools/icons, not by `npm ci`), into two SVG
 * sprites, committed: the site's (`sprite.svg` beside this file) and the admin's
 * (app/components/admin/sprite.svg), which the pages use with `<use href="…/sprite-HASH.svg#name">`.
 * A unit test checks that each sprite has a symbol for every name and no other, so adding a
 * name here means running `npm run icons`.
 *
 * - Lucide (https://lucide.dev, ISC licence), lucide-react's per-icon data; the names are
 *   Lucide's file names.
 * - Social networks: Simple Icons (https://simpleicons.org, CC0), by the package's slug.
 */
export const SITE_ICON_NAMES = [
  'arrow-left',
  'arrow-right',
  'calendar-days',
  'calendar-heart',
  'calendar-plus',
  'circle-check',
  'clock',
  'download',
  'external-link',
  'eye',
  'headphones',
  'heart',
  'house',
  'images',
  'layout-dashboard',
  'list-music',
  'list-plus',
  'lock',
  'log-out',
  'mail',
  'map-pin',
  'menu',
  'eighth-notes',
  'newspaper',
  'pause',
  'phone',
  'play',
  'repeat',
  'rotate-ccw',
  'rotate-cw',
  'search',
  'settings',
  'share-2',
  'shuffle',
  'skip-back',
  'skip-forward',
  'ticket',
  'users',
  'volume-1',
  'volume-2',
  'volume-x',
  'x',
] as const;

export type SiteIconName = (typeof SITE_ICON_NAMES)[number];

/** The admin's icons (app/components/admin/icons.tsx), in its own sprite. */
export const ADMIN_ICON_NAMES = [
  'arrow-left',
  'calendar-days',
  'chart-column',
  'copy',
  'download',
  'eighth-notes',
  'external-link',
  'eye',
  'file-text',
  'image',
  'layout-dashboard',
  'mail',
  'map-pin',
  'message-square',
  'palette',
  'pencil',
  'plus',
  'search',
  'send',
  'settings',
  'shuffle',
  'star',
  'trash',
  'users',
] as const;

export type AdminIconName = (typeof ADMIN_ICON_NAMES)[number];

/** The networks the site links to: photos, short messages, video, streaming, sound, social. */
export type SocialNetwork =
  'instagram' | 'twitter' | 'youtube' | 'spotify' | 'soundcloud' | 'facebook';

/** Each network's Simple Icons export (`si` + slug), drawn as the symbol `social-<network>`. */
export const SOCIAL_ICON_EXPORTS: Record<SocialNetwork, string> = {
  instagram: 'siInstagram',
  twitter: 'siX',
  youtube: 'siYoutube',
  spotify: 'siSpotify',
  soundcloud: 'siSoundcloud',
  facebook: 'siFacebook',
};

export const socialSymbolId = (network: SocialNetwork) => `social-${network}`;
