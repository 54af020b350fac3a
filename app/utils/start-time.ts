/**
 * A start time as `?t=` carries it on the track page and in embeds: `3750` (seconds),
 * `1h02m30s` / `62m30s` / `45s`, or `1:02:30` / `2:30`. Null when it is none of these.
 */
export function parseStartTime(value: string | null | undefined): number | null {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text.length > 20) return null;
  if (/^\d+$/.test(text)) return Number(text);
  const units = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (units && (units[1] || units[2] || units[3])) {
    return Number(units[1] ?? 0) * 3600 + Number(units[2] ?? 0) * 60 + Number(units[3] ?? 0);
  }
  if (/^\d+(:[0-5]\d){1,2}$/.test(text)) {
    return text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  }
  return null;
}

/** `1h02m30s`, `2m05s`, `45s`: the short form a shared link carries. */
export function formatStartTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return `${h}h${pad(m)}m${pad(rest)}s`;
  if (m > 0) return `${m}m${pad(rest)}s`;
  return `${rest}s`;
}
