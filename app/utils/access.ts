import type {
  BlogPostJSON,
  BlogPostView,
  TrackJSON,
  TrackView,
  Visibility,
} from '~/types/entities';

import { DATE_LONG, formatSiteDate, siteToday } from './time';

/**
 * Who is reading: a logged-in member (administrators included) or a visitor without an
 * account. `today` (YYYY-MM-DD, site time zone) defaults to the real day; tests pass one.
 */
export type Viewer = { member: boolean; today?: string };

/** The back office and the model's own writes see everything. */
export const FULL_ACCESS: Viewer = { member: true };
export const ANONYMOUS: Viewer = { member: false };

type Restricted = { visibility: Visibility; publicAt: string | null };

/**
 * Members-only on `today`: visibility "members" and no `publicAt`, or a `publicAt` still to
 * come (early access: the item turns public on that day, at midnight in the site's time zone).
 */
export function isMembersOnly(item: Restricted, today: string = siteToday()): boolean {
  return item.visibility === 'members' && (item.publicAt === null || item.publicAt > today);
}

/**
 * The track as this viewer may see it: without its audio file when it is locked, and with
 * `audioFile: null` until its stream is ready (decision 035: the upload is for admins only).
 */
export function trackFor(viewer: Viewer, track: TrackJSON): TrackView {
  if (viewer.member || !isMembersOnly(track, viewer.today)) {
    return track.audioStatus === 'ready' ? track : { ...track, audioFile: null };
  }
  const { audioFile: _audio, ...rest } = track;
  return { ...rest, locked: true };
}

/** The post as this viewer may see it: without its content when it is locked. */
export function postFor(viewer: Viewer, post: BlogPostJSON): BlogPostView {
  if (viewer.member || !isMembersOnly(post, viewer.today)) return post;
  const { content: _content, ...rest } = post;
  return { ...rest, locked: true };
}

export const MEMBERS_ONLY = 'Members only';
export const MEMBERS_ONLY_POST = 'Members only: log in or register to read';

/** "Public on December 5, 2026" for early access, null otherwise. */
export function publicOnText(item: Restricted, today: string = siteToday()): string | null {
  if (!isMembersOnly(item, today) || item.publicAt === null) return null;
  return `Public on ${formatSiteDate(item.publicAt, DATE_LONG)}`;
}

/** Where a locked item sends its visitor: the login page, coming back to `path` after. */
export function unlockHref(path: string, tab: 'login' | 'register' = 'login'): string {
  const query = new URLSearchParams({ ...(tab === 'register' ? { tab } : {}), redirectTo: path });
  return `/auth?${query.toString()}`;
}

/** A track this reader may play (the player's queue holds only these): unlocked and ready. */
export function isPlayable(track: TrackView): track is TrackJSON {
  return !track.locked && track.audioStatus === 'ready';
}

export const PROCESSING_TEXT = 'Processing…';
export const UNAVAILABLE_TEXT = 'Not available';

/**
 * What a list shows instead of a play button while the track's stream is being made
 * (decision 035), or when it could not be; null when the track can be played.
 */
export function audioPendingText(track: Pick<TrackView, 'audioStatus'>): string | null {
  if (track.audioStatus === 'processing') return PROCESSING_TEXT;
  if (track.audioStatus === 'failed') return UNAVAILABLE_TEXT;
  return null;
}
