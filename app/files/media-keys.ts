/**
 * What names a stored media file (decision 023): its key, the part of its `/uploads/` URL after
 * the prefix (`audio/<32 hex>.mp3`, `images/<32 hex>-640w.webp`). Pure: the stores, the
 * `/uploads` middleware and the scripts all read keys through these.
 */

/** A key as stored: `audio/…` or `images/…`, plain segments only. */
export function isMediaKey(key: string): boolean {
  const segments = key.split('/');
  return (
    segments.length === 2 &&
    (segments[0] === 'audio' || segments[0] === 'images') &&
    segments.every((s) => s !== '' && !s.startsWith('.') && !/[\\\0:]/.test(s) && !s.includes('/'))
  );
}

/** The key of an `/uploads/...` URL (each segment decoded once), or null for any other URL. */
export function mediaKeyFromUrl(url: string | null | undefined): string | null {
  if (!url || !url.startsWith('/uploads/')) return null;
  try {
    const key = url
      .slice('/uploads/'.length)
      .split(/[?#]/)[0]!
      .split('/')
      .map(decodeURIComponent)
      .join('/');
    return isMediaKey(key) ? key : null;
  } catch {
    return null;
  }
}
