/**
 * The icons of the public site and the player, by name. Their shapes are not in the page's
 * JavaScript: `npm run icons` (scripts/icons.ts) draws every one of them, from the npm packages
 * below, into one SVG sprite (`sprite.svg` beside this file, committed), which the pages use
 * with `<use href="…/sprite-HASH.svg#name">`. A test checks that the committed sprite is what
 * the script would write, so adding a name here means running `npm run icons`.
 *
 * - Site icons: Lucide (https://lucide.dev, ISC licence), the lucide-react package's icon data;
 *   the names are Lucide's file names. The admin keeps using lucide-react components.
 * - Social networks: Simple Icons (https://simpleicons.org, CC0), by the package's slug.
 */
export const SITE_ICON_NAMES = [
  'arrow-right',
  'calendar-days',
  'circle-check',
  'download',
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
  'menu',
  'eighth-notes',
  'newspaper',
  'pause',
  'play',
  'repeat',
  'rotate-ccw',
  'rotate-cw',
  'settings',
  'share-2',
  'shuffle',
  'skip-back',
  'skip-forward',
  'volume-1',
  'volume-2',
  'volume-x',
  'x',
] as const;

export type SiteIconName = (typeof SITE_ICON_NAMES)[number];

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
