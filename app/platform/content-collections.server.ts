/**
 * Which collections are content: what a shared page, a public answer or a cached read may show
 * (decision 043). Only a write to one of these bumps the data version (data-version.server.ts)
 * and so empties the page cache of every instance.
 *
 * An allow-list, not a list of exceptions. Background work writes all day (the media worker's
 * claims and lease renewals, GridFS chunks of a transcode, sessions, rate limits, counts, the
 * mail queue); with a list of exceptions, every new collection of that kind empties every
 * cache of every instance on every write until someone notices (issue 37: one page per bench
 * run collapsed to a tenth of static). With an allow-list, a collection left off costs the
 * pages that read it their caching, never their freshness: a render that reads a collection
 * not listed here is not kept by the page cache, and `cachedRead` does not remember reads of
 * it (`isContentCollection` is checked on both paths). So a mistake either way is slower,
 * never staler; and `content-collections.server.test.ts` fails until every model's
 * collection is sorted into one of the two lists below.
 */

/** Shown to visitors or held by a cache: a write to one changes what may be served. */
export const CONTENT_COLLECTIONS: ReadonlySet<string> = new Set([
  'tracks',
  // The waveform of the track page and /api/tracks/{id}/peaks.
  'track_peaks',
  'blog_posts',
  'gallery_images',
  'shows',
  'theme_settings',
  'newsletter_settings',
  'newsletters',
  'subscribers',
  'users',
  'favourites',
  'contact_messages',
  'guest_list_spots',
  'guest_list_confirmations',
  'podcast_feed_tokens',
  // GridFS file documents: the media path's access decision and file look-up are cached reads.
  'media.files',
]);

/**
 * Written by background work or per visitor, never shown from a shared memory: writes to these
 * bump nothing. (Reads of them are never cached: see the top of this file.)
 */
export const BACKGROUND_COLLECTIONS: ReadonlySet<string> = new Set([
  'sessions',
  'rate_limits',
  'data_versions',
  'stats_daily',
  'stats_seen',
  'mail_deliveries',
  'mail_rate_windows',
  'media_jobs',
  // GridFS chunks: written once under a new file's id and read through their own cache keyed
  // by it; the file document (media.files, content) is written after them.
  'media.chunks',
  'counters',
  'meta',
  // The fediverse (decision 053): Fedify's store and queue, the actor's keys, its followers and
  // blocks; no public page shows them.
  'fediverse_kv',
  'fediverse_jobs',
  'fediverse_keys',
  'fediverse_followers',
  'fediverse_blocks',
  // What the site has sent to the fediverse (decision 054): read by the outbox and the sweep,
  // never by a page.
  'fediverse_publications',
]);

export const isContentCollection = (name: string): boolean => CONTENT_COLLECTIONS.has(name);
