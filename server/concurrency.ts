/**
 * WEB_CONCURRENCY: how many worker processes serve the site (default 1: one process, no
 * primary). A whole number from 1 to 64; null for anything else (the start stops with a
 * message naming the variable).
 */
export function parseWebConcurrency(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return 1;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : null;
}
