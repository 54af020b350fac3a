import { env } from '~/platform/env.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { escapeHtml } from '~/utils/html';

/**
 * The site's one actor (decision 053). Its id never changes: `ACTOR_ID` is the `{identifier}`
 * of every actor path (`/fediverse/site`), while the handle people type (`@HANDLE@host`) is
 * FEDIVERSE_HANDLE, which may change without losing followers (WebFinger maps it to the id).
 */
export const ACTOR_ID = 'site';

/** The paths Fedify answers (all under /fediverse, plus the well-known ones). */
export const PATHS = {
  actor: '/fediverse/{identifier}',
  inbox: '/fediverse/{identifier}/inbox',
  sharedInbox: '/fediverse/inbox',
  outbox: '/fediverse/{identifier}/outbox',
  followers: '/fediverse/{identifier}/followers',
  nodeInfo: '/nodeinfo/2.1',
} as const;

/**
 * FEDIVERSE_HANDLE, else SITE_NAME in lowercase with spaces and dashes as `_` and anything else
 * but letters and digits dropped (`Night Shore` → `night_shore`), at most 30 characters;
 * `site` when nothing is left.
 */
export function defaultHandle(siteName: string): string {
  const handle = siteName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/[^a-z0-9_]/g, '')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 30);
  return handle || 'site';
}

export const fediverseHandle = () => env.FEDIVERSE_HANDLE ?? defaultHandle(env.SITE_NAME);

/** The host of the handle: SITE_URL's (`localhost:PORT` without it). */
export const fediverseHost = () => new URL(siteOrigin()).host;

/** `@night_shore@nightshore.band`, as people type it. */
export const fediverseAddress = () => `@${fediverseHandle()}@${fediverseHost()}`;

/** The actor's summary: the about page's description, as plain text (escaped for HTML). */
export function actorSummary(siteName: string): string {
  const text = `The story of ${siteName}, an electronic music collective from the Jersey Shore.`;
  return `<p>${escapeHtml(text)}</p>`;
}
