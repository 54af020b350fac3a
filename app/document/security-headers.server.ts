import crypto from 'node:crypto';

import { env } from '~/platform/env.server';
import { siteOrigin } from '~/platform/site-origin.server';

/**
 * The security headers of every answer. HTML documents get the full set with a
 * Content-Security-Policy carrying the request's nonce; data (`.data`) and resource
 * routes get the cheap ones (no CSP needed: they are never rendered as a document, and
 * `nosniff` stops a browser from guessing otherwise).
 */

/** A fresh, unguessable nonce for one HTML answer (128 bits, base64). */
export function createNonce(): string {
  return crypto.randomBytes(16).toString('base64');
}

/** The origin of ASSET_HOST, or '' when media is served by this site. */
function assetOrigin(): string {
  if (!env.ASSET_HOST) return '';
  try {
    return new URL(env.ASSET_HOST).origin;
  } catch {
    return '';
  }
}

/**
 * The Content-Security-Policy of an HTML answer. The only frame a page may hold is this site's
 * own embed (`<SITE_URL>/embed/`: the share dialog's live preview, decision 038): nothing else
 * of ours, no other host. On every page, because a document keeps the CSP it was loaded with
 * while Remix navigates (the player keeps playing) and the dialog opens from any page's bar.
 */
export function contentSecurityPolicy(nonce: string): string {
  const asset = assetOrigin();
  const withAsset = (...sources: string[]) => [...sources, asset].filter(Boolean).join(' ');
  const directives: Record<string, string> = {
    'default-src': "'self'",
    // Only our own bundles and the inline scripts Remix renders with this nonce.
    'script-src': `'self' 'nonce-${nonce}'`,
    // The theme's CSS variables are an inline <style>, and React sets style attributes.
    'style-src': "'self' 'unsafe-inline'",
    'img-src': withAsset("'self'", 'data:', 'blob:'),
    'media-src': withAsset("'self'", 'blob:'),
    'font-src': withAsset("'self'"),
    'connect-src': "'self'",
    'manifest-src': "'self'",
    'worker-src': "'self' blob:",
    'frame-src': `${siteOrigin()}/embed/`,
    'frame-ancestors': "'none'",
    'form-action': "'self'",
    'base-uri': "'self'",
    'object-src': "'none'",
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'interest-cohort=()',
  'browsing-topics=()',
  // The player uses the Media Session API and autoplay on our own origin only.
  'autoplay=(self)',
  'fullscreen=(self)',
].join(', ');

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Headers every answer gets (documents, data requests, resource routes, static files).
 * Set on every Node response by the server's first middleware (`trackRequest`).
 */
export function baseSecurityHeaders(path = '/'): [string, string][] {
  const list: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Permissions-Policy', PERMISSIONS_POLICY],
  ];
  // Only the embeds may be framed by other sites (their own CSP says by whom, decision 038).
  if (!isEmbedPath(path)) list.push(['X-Frame-Options', 'DENY']);
  if (env.NODE_ENV === 'production') list.push(['Strict-Transport-Security', HSTS]);
  return list;
}

/** The pages other sites may frame: `/embed/...` (decision 038). */
export const isEmbedPath = (path: string) => path === '/embed' || path.startsWith('/embed/');

/**
 * `frame-ancestors` of the embeds: any site (`*`), or the origins of EMBED_ALLOWED_ORIGINS
 * when it is set.
 */
export function embedFrameAncestors(): string {
  const origins = env.EMBED_ALLOWED_ORIGINS.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  // Restricted: our own pages keep the preview of the share dialog.
  return origins.length > 0 ? ["'self'", ...origins].join(' ') : '*';
}

/**
 * The Content-Security-Policy of an embed page (decision 038): its own script and inline
 * style with this answer's nonce, images, audio and fonts from here (or ASSET_HOST), the play
 * beacon to here; no form, no frame, no other host; framed by `embedFrameAncestors()`.
 */
export function embedContentSecurityPolicy(nonce: string): string {
  const asset = assetOrigin();
  const withAsset = (...sources: string[]) => [...sources, asset].filter(Boolean).join(' ');
  const directives: Record<string, string> = {
    'default-src': "'none'",
    'script-src': `'self' 'nonce-${nonce}'`,
    'style-src': `'nonce-${nonce}'`,
    'img-src': withAsset("'self'", 'data:'),
    'media-src': withAsset("'self'"),
    // The theme's fonts, from the site's build (their files answer any origin: a sandboxed
    // frame's is opaque).
    'font-src': withAsset("'self'"),
    'connect-src': "'self'",
    'frame-ancestors': embedFrameAncestors(),
    'form-action': "'none'",
    'base-uri': "'none'",
    'object-src': "'none'",
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/** Add the base set to a Fetch Headers object (for answers made outside the HTTP server). */
export function applyBaseSecurityHeaders(headers: Headers, path = '/'): void {
  for (const [name, value] of baseSecurityHeaders(path)) headers.set(name, value);
  headers.delete('X-Powered-By');
}

/** The full set for an HTML document: the base headers and the CSP with this answer's nonce. */
export function applyDocumentSecurityHeaders(headers: Headers, nonce: string): void {
  applyBaseSecurityHeaders(headers);
  headers.set('Content-Security-Policy', contentSecurityPolicy(nonce));
}
