/**
 * The music page's search is a case-insensitive substring match on title, artist or album.
 * The same rule as the model's query (`listTracks({ q })` builds a `RegExp(escaped, 'i')` over
 * the three fields), written as a pure function so both can be tested to agree.
 */
import { escapeRegExp } from './regexp';

export type SearchableTrack = { title: string; artist: string; album: string | null };

/** The trimmed query, or '' for none. */
export function normalizeTrackQuery(q: string | null | undefined): string {
  return (q ?? '').trim();
}

export function matchesTrackQuery(track: SearchableTrack, q: string | null | undefined): boolean {
  const query = normalizeTrackQuery(q);
  if (!query) return true;
  const re = new RegExp(escapeRegExp(query), 'i');
  return (
    re.test(track.title) || re.test(track.artist) || (track.album != null && re.test(track.album))
  );
}
