/**
 * Content negotiation between the pages and their ActivityPub twins (issue 40, decision 054):
 * `/music/{id}`, `/blog/{slug}` and `/shows/{id}` answer an ActivityStreams object to an
 * ActivityPub client and HTML to everyone else, on the same URL, with `Vary: Accept` on both.
 *
 * One predicate decides who is an ActivityPub client, so the three places that ask agree: the
 * server's federation mount (whether a request goes to Fedify at all), the page cache (an
 * ActivityPub request never takes or fills an entry) and the tombstones.
 */

/** The media types of ActivityStreams 2.0 (RFC-less, W3C AS2 §3.1 and ActivityPub §3.2). */
export const ACTIVITY_JSON = 'application/activity+json';
export const LD_JSON_ACTIVITY =
  'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

type MediaRange = { type: string; q: number; order: number };

function mediaRanges(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((part, order) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const qParam = params.find((p) => p.startsWith('q='));
      const q = qParam ? Number.parseFloat(qParam.slice(2)) : 1;
      return { type, q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((range) => range.type !== '' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
}

const AS2_TYPES = new Set([ACTIVITY_JSON, 'application/ld+json']);

/**
 * True for an ActivityPub client: its Accept names `application/activity+json` or
 * `application/ld+json` (Mastodon sends the profile form, others the bare one) and its first
 * choice is not HTML. A browser (`text/html` first, or only `*\/*`), a client that sends no
 * Accept at all and a feed reader get HTML. Fedify's own check (`acceptsJsonLd`) also takes a
 * missing Accept or `application/json`: those never reach it for a page's URL (the mount asks
 * this predicate first), so they keep the page.
 */
export function wantsActivityStreams(accept: string | null | undefined): boolean {
  if (!accept) return false;
  const ranges = mediaRanges(accept);
  const first = ranges[0]?.type;
  if (!first || first === 'text/html' || first === 'application/xhtml+xml') return false;
  return ranges.some((range) => AS2_TYPES.has(range.type));
}

/** The pages that have an ActivityPub twin on the same URL (their HTML says `Vary: Accept`). */
const NEGOTIATED_PATHS = [/^\/music\/\d{1,12}$/, /^\/blog\/[^/]+$/, /^\/shows\/\d{1,12}$/];

export function isNegotiatedPath(pathname: string): boolean {
  return NEGOTIATED_PATHS.some((pattern) => pattern.test(pathname));
}

/** `Vary` with `Accept` added once (an answer that already varies keeps what it had). */
export function varyWithAccept(vary: string | null): string {
  const names = (vary ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.some((name) => name === '*' || name.toLowerCase() === 'accept'))
    return names.join(', ');
  return [...names, 'Accept'].join(', ');
}
