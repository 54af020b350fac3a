import type { StatsPeriod } from '~/schemas/stats';

/** The statistics the admin reads (decision 024): dashboard, CSV and /api/admin/stats. */
export type DayFigures = {
  day: string;
  plays: number;
  starts: number;
  views: number;
  visits: number;
};

export type StatsReport = {
  days: StatsPeriod;
  from: string;
  to: string;
  daily: DayFigures[];
  totals: Omit<DayFigures, 'day'>;
  topTracks: { id: number; title: string; plays: number; starts: number }[];
  /**
   * Every mix (type in MIX_TYPES): plays in the site's player and podcast feed downloads
   * (one per client, episode and day, decision 037) over the period, newest mix first.
   */
  mixes: { id: number; title: string; plays: number; downloads: number }[];
  topPages: { path: string; views: number }[];
  topReferrers: { host: string; visits: number }[];
  /** "Embedded on": plays started in an embed, by the embedding site's host (decision 038). */
  topEmbedHosts: { host: string; plays: number }[];
  /** Active subscribers at the end of each day, and how many joined that day. */
  subscribers: { day: string; total: number; joined: number }[];
  newsletters: {
    id: number;
    subject: string;
    sentAt: string;
    recipients: number;
    sent: number;
    failed: number;
  }[];
};
