import { z } from 'zod';

/** POST /api/plays: the track the player has sounded for 30 s or to its end. */
export const PlaySchema = z.object({
  trackId: z.number({ message: 'trackId must be a track id' }).int().positive(),
  /** The play token the player was issued (`GET /api/plays/token`; issue 38). */
  token: z.string().max(300).optional(),
  /** From an embed: its page's play token, with the embedding site's host (decision 038). */
  embed: z.string().max(300).optional(),
});

/** The periods the statistics are shown for (days, ending today). */
export const STATS_PERIODS = [7, 30, 90] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/** `?days=` of the dashboard, its CSV and /api/admin/stats: 7, 30 (default) or 90. */
export function statsPeriod(value: string | null): StatsPeriod | null {
  if (value === null || value === '') return 30;
  const n = Number(value);
  return (STATS_PERIODS as readonly number[]).includes(n) ? (n as StatsPeriod) : null;
}
