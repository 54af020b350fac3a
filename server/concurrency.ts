/**
 * WEB_CONCURRENCY: how many worker processes serve the site (default 1: one process, no
 * primary). A whole number from 1 to 64; anything else stops the start with a clear message.
 */
export function parseWebConcurrency(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(
      `[night-shore] WEB_CONCURRENCY must be a whole number from 1 to 64 (got "${value}").`,
    );
    process.exit(1);
  }
  return n;
}
