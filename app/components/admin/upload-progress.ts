/**
 * What the resumable upload's progress bar says: "42% · about 3 min left". Pure: the speed is
 * estimated from samples passed in (time in ms, bytes sent), no clock of its own.
 */

export type ProgressSample = { at: number; bytes: number };

/** Samples kept for the speed estimate: the last 20 seconds. */
const WINDOW_MS = 20_000;

/** The samples to keep after a new one (the window's, plus the newest). */
export function addSample(samples: readonly ProgressSample[], next: ProgressSample) {
  // After a resume the bytes may go back (an unconfirmed chunk is sent again): start over.
  if (samples.some((s) => s.bytes > next.bytes)) return [next];
  return [...samples.filter((s) => next.at - s.at <= WINDOW_MS), next];
}

/** Bytes per second over the samples, or null without enough of them to say. */
export function uploadSpeed(samples: readonly ProgressSample[]): number | null {
  if (samples.length < 2) return null;
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const ms = last.at - first.at;
  if (ms < 1000 || last.bytes <= first.bytes) return null;
  return ((last.bytes - first.bytes) / ms) * 1000;
}

/** "about 3 min left", "about 40 s left", "about 1 h 20 min left"; null when unknown. */
export function remainingText(bytesLeft: number, speed: number | null): string | null {
  if (speed === null || speed <= 0) return null;
  const seconds = Math.ceil(bytesLeft / speed);
  if (seconds < 60) return `about ${Math.max(5, Math.ceil(seconds / 5) * 5)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} h${rest ? ` ${rest} min` : ''} left`;
}

/** The whole percentage sent (99 until the last byte: 100 means done). */
export function percentSent(sent: number, total: number): number {
  if (total <= 0) return 0;
  if (sent >= total) return 100;
  return Math.min(99, Math.floor((sent / total) * 100));
}

/** "42% · about 3 min left", or "42%" while the time is unknown. */
export function progressText(sent: number, total: number, speed: number | null): string {
  const percent = `${percentSent(sent, total)}%`;
  const left = sent < total ? remainingText(total - sent, speed) : null;
  return left ? `${percent} · ${left}` : percent;
}
