import { env } from './env.server';
import { logger } from './logger.server';

/**
 * The site's absolute origin, for every link that leaves the site (emails, feeds, sitemaps,
 * canonical URLs): SITE_URL, else `http://localhost:PORT` with the port the server listens
 * on. Never the request's Host: a forged Host would write another site's address into the
 * site's own emails (docs/decisions/028-trust-boundary.md).
 */
const listening = { port: null as number | null };

export function siteOrigin(): string {
  return env.SITE_URL || `http://localhost:${listening.port ?? env.PORT}`;
}

/**
 * Called by our server module once it listens (the port may be a free one when 3000 was
 * taken). Says at start where links point when SITE_URL is unset.
 */
export function serverListening(port: number): void {
  listening.port = port;
  if (!env.SITE_URL) {
    logger.info(
      `SITE_URL is unset: links in emails and feeds use ${siteOrigin()}, and the ` +
        'site answers only for localhost (set SITE_URL, and ALLOWED_HOSTS for other names).',
    );
  }
}
