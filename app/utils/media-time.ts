/**
 * Times within a track (client-safe, no dependencies): the clock texts an admin types
 * (`m:ss`, `h:mm:ss`), the `?t=` of a deep link (`1h02m30s`, `3750`, `62:30`), what the pages
 * show, and ISO 8601 durations for JSON-LD. Decision 034.
 */

/** The longest time anything here accepts: 24 hours (no set, show or deep link is longer). */
export const MAX_MEDIA_SECONDS = 24 * 60 * 60;

const CLOCK = /^(?:(\d{1,2}):([0-5]\d):([0-5]\d)|(\d{1,4}):([0-5]\d))$/;

/**
 * Seconds in a clock text: `h:mm:ss` (`1:02:30`) or `m:ss` (`62:30`, minutes may pass 59);
 * null when it is not one, or longer than 24 hours. The one clock parser of the site.
 *
 * `lenient`: what a track's stored `duration` text is read with (the player's total before the
 * audio element knows it): two or three groups of digits of any size (`3:5`, `99:99`), no
 * 24-hour bound, as the player has always read it.
 */
export function parseClock(
  text: string | null | undefined,
  options: { lenient?: boolean } = {},
): number | null {
  const trimmed = (text ?? '').trim();
  if (options.lenient) {
    const parts = trimmed.split(':');
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) return null;
    return parts.reduce((acc, p) => acc * 60 + Number(p), 0);
  }
  const m = CLOCK.exec(trimmed);
  if (!m) return null;
  const seconds =
    m[1] !== undefined
      ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])
      : Number(m[4]) * 60 + Number(m[5]);
  return seconds <= MAX_MEDIA_SECONDS ? seconds : null;
}

/**
 * Whole seconds as a clock: `m:ss` under an hour, `h:mm:ss` from an hour on; anything not a
 * positive finite number is `0:00`. The one clock formatter: pages, the player, the embed page
 * and its script (app/embed/player.ts bundles this module), the podcast notes, the seed.
 */
export function formatClock(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

const UNITS = /^(?:(\d{1,2})h)?(?:(\d{1,4})m)?(?:(\d{1,5})s)?$/;

/**
 * The position a deep link asks for, in whole seconds: `?t=3750`, `?t=1h02m30s` (also `1h`,
 * `62m`, `90s`), or a clock `62:30` / `1:02:30`. Null for anything else, or beyond 24 hours.
 */
export function parseDeepLinkTime(raw: string | null | undefined): number | null {
  const text = (raw ?? '').trim().toLowerCase();
  if (text === '' || text.length > 12) return null;
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return seconds <= MAX_MEDIA_SECONDS ? seconds : null;
  }
  if (text.includes(':')) return parseClock(text);
  const m = UNITS.exec(text);
  if (!m || (m[1] ?? m[2] ?? m[3]) === undefined) return null;
  const seconds = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  return seconds <= MAX_MEDIA_SECONDS ? seconds : null;
}

/** The `t=` value a link carries: `1h02m30s`, `2m05s`, `45s` (readable, and parsed back above). */
export function deepLinkTime(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return `${h}h${two(m)}m${two(sec)}s`;
  if (m > 0) return `${m}m${two(sec)}s`;
  return `${sec}s`;
}

/** Whole seconds as an ISO 8601 duration: 3750 → `PT1H2M30S`, 0 → `PT0S`. */
export function isoDurationOf(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (s === 0) return 'PT0S';
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${sec ? `${sec}S` : ''}`;
}

/** The tracklist row playing at `position` (the last one started), or -1 before the first. */
export function currentRowIndex(rows: readonly { start: number }[], position: number): number {
  let found = -1;
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].start <= position) found = i;
    else break;
  }
  return found;
}
