import { env } from './env.server';

/**
 * The site-specific values the pages show (collective name, contact details, social
 * links), read from the environment with defaults. Only public values are here: this
 * object is sent to the browser.
 */
export function getSiteConfig() {
  return {
    siteName: env.SITE_NAME,
    siteUrl: env.SITE_URL,
    assetHost: env.ASSET_HOST,
    contactEmail: env.CONTACT_EMAIL,
    contactPhone: env.CONTACT_PHONE,
    contactAddress: env.CONTACT_ADDRESS,
    social: {
      instagram: env.SOCIAL_INSTAGRAM,
      twitter: env.SOCIAL_TWITTER,
      youtube: env.SOCIAL_YOUTUBE,
      spotify: env.SOCIAL_SPOTIFY,
      soundcloud: env.SOCIAL_SOUNDCLOUD,
      facebook: env.SOCIAL_FACEBOOK,
    },
  };
}
export type SiteConfig = ReturnType<typeof getSiteConfig>;
