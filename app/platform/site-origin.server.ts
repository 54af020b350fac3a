import net from 'node:net';

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

/**
 * True for a host name that names this machine (`localhost`, `*.localhost`, 127.0.0.0/8, `::1`,
 * an IPv4-mapped loopback, the unspecified `0.0.0.0`/`::`): an address nothing outside this
 * machine reached the site by. Takes `URL#hostname` (IPv6 in brackets) or a bare address.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (net.isIPv4(name)) return name.startsWith('127.') || name === '0.0.0.0';
  if (net.isIPv6(name)) {
    if (name === '::1' || name === '::') return true;
    // ::ffff:127.0.0.1, which URL writes as ::ffff:7f00:1
    const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):[0-9a-f]{1,4})$/.exec(name);
    if (mapped?.[1]) return mapped[1].startsWith('127.');
    if (mapped?.[2]) return parseInt(mapped[2], 16) >> 8 === 127;
  }
  return false;
}
