import { countDeliveriesByState } from '~/models/mail-delivery.server';
import { listNewsletters } from '~/models/newsletter.server';
import { readDaily, readDailyForKeys, type StatMetric } from '~/models/stats.server';
import { countActiveJoinsBetween } from '~/models/subscriber.server';
import { listTracksForStats } from '~/models/track.server';
import type { StatsPeriod } from '~/schemas/stats';
import { MIX_TYPES } from '~/types/constants';
import type { StatsReport } from '~/types/stats';
import { toCsv } from '~/utils/csv';
import { addDaysToDateString, siteDayStart, siteToday } from '~/utils/time';

export type { DayFigures, StatsReport } from '~/types/stats';

/**
 * The statistics the admin reads (decision 024): the dashboard's Analytics card, its CSV and
 * GET /api/admin/stats give the same figures.
 */
const TOP = 10;
/** The mixes table lists at least the newest this many mixes (played or not). */
const RECENT_MIXES = 50;

function sumBy(rows: { key: string; n: number }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) out.set(r.key, (out.get(r.key) ?? 0) + r.n);
  return out;
}

/** The first TOP items with a non-zero score, best first by the first score, then the next. */
const top = <T>(items: T[], ...scores: ((t: T) => number)[]) =>
  items
    .filter((t) => scores.some((score) => score(t) > 0))
    .sort((a, b) => {
      for (const score of scores) if (score(b) !== score(a)) return score(b) - score(a);
      return 0;
    })
    .slice(0, TOP);

export async function statsReport(days: StatsPeriod, today = siteToday()): Promise<StatsReport> {
  const from = addDaysToDateString(today, -(days - 1));
  const dayList = Array.from({ length: days }, (_, i) => addDaysToDateString(from, i));
  const read = (metric: StatMetric) => readDaily(metric, from, today);
  const [plays, starts, views, visits, referrers, embeds, joins, newsletters, downloads] =
    await Promise.all([
      read('play'),
      read('start'),
      read('view'),
      read('visit'),
      read('referrer'),
      read('embed'),
      // Counted per site day (and before the first), never read one by one.
      countActiveJoinsBetween(
        [...dayList, addDaysToDateString(today, 1)].map((day) => new Date(siteDayStart(day))),
      ),
      listNewsletters({ limit: 5 }),
      read('download'),
    ]);
  // Only the tracks the period's figures name (and the newest mixes), not the catalogue.
  const numericKeys = (rows: { key: string }[]) =>
    rows.map((r) => Number(r.key)).filter((n) => Number.isSafeInteger(n) && n > 0);
  const tracks = await listTracksForStats({
    ids: [...new Set([...numericKeys(plays), ...numericKeys(downloads)])],
    audioFiles: [...new Set(starts.map((r) => r.key))],
    recentMixes: RECENT_MIXES,
  });

  const perDay = (rows: { day: string; n: number }[]) => {
    const out = new Map<string, number>();
    for (const r of rows) out.set(r.day, (out.get(r.day) ?? 0) + r.n);
    return out;
  };
  const [p, s, v, u] = [perDay(plays), perDay(starts), perDay(views), perDay(visits)];
  const daily = dayList.map((day) => ({
    day,
    plays: p.get(day) ?? 0,
    starts: s.get(day) ?? 0,
    views: v.get(day) ?? 0,
    visits: u.get(day) ?? 0,
  }));
  const totals = daily.reduce(
    (t, d) => ({
      plays: t.plays + d.plays,
      starts: t.starts + d.starts,
      views: t.views + d.views,
      visits: t.visits + d.visits,
    }),
    { plays: 0, starts: 0, views: 0, visits: 0 },
  );

  const playsByTrack = sumBy(plays);
  const startsByAudio = sumBy(starts);
  const topTracks = top(
    tracks.map((t) => ({
      id: t.id,
      title: t.title,
      plays: playsByTrack.get(String(t.id)) ?? 0,
      starts: startsByAudio.get(t.audioFile) ?? 0,
    })),
    (t) => t.plays,
    (t) => t.starts,
  );
  const downloadsByTrack = sumBy(downloads);
  const mixes = tracks
    .filter((t) => MIX_TYPES.includes(t.type))
    .map((t) => ({
      id: t.id,
      title: t.title,
      plays: playsByTrack.get(String(t.id)) ?? 0,
      downloads: downloadsByTrack.get(String(t.id)) ?? 0,
    }));
  const topPages = top(
    [...sumBy(views)].map(([path, n]) => ({ path, views: n })),
    (x) => x.views,
  );
  const topReferrers = top(
    [...sumBy(referrers)].map(([host, n]) => ({ host, visits: n })),
    (x) => x.visits,
  );
  // "Embedded on": plays started in an embed, by the host of the site that framed it.
  const topEmbedHosts = top(
    [...sumBy(embeds)].map(([host, n]) => ({ host, plays: n })),
    (x) => x.plays,
  );

  // Sign-ups per day, and the running total from those before the period.
  let total = joins.before;
  const subscribers = dayList.map((day, i) => {
    const joined = joins.within[i] ?? 0;
    total += joined;
    return { day, total, joined };
  });

  const newsletterRows = await Promise.all(
    newsletters.map(async (n) => {
      const counts = await countDeliveriesByState(n.id);
      return {
        id: n.id,
        subject: n.subject,
        sentAt: n.sentAt,
        recipients: n.sentCount,
        sent: counts.sent,
        failed: counts.failed,
      };
    }),
  );

  return {
    days,
    from,
    to: today,
    daily,
    totals,
    topTracks,
    mixes,
    topPages,
    topReferrers,
    topEmbedHosts,
    subscribers,
    newsletters: newsletterRows,
  };
}

/** The report's daily figures and its top lists as one CSV (formula-safe). */
export function statsCsv(report: StatsReport): string {
  const rows: string[][] = [
    [
      'Day',
      'Plays (30 s or to the end)',
      'Play starts (audio from its first byte)',
      'Page views',
      'Visits',
      'Active subscribers',
    ],
    ...report.daily.map((d, i) => [
      d.day,
      String(d.plays),
      String(d.starts),
      String(d.views),
      String(d.visits),
      String(report.subscribers[i]?.total ?? 0),
    ]),
    [],
    ['Track', 'Plays', 'Play starts'],
    ...report.topTracks.map((t) => [t.title, String(t.plays), String(t.starts)]),
    [],
    ['Page', 'Views'],
    ...report.topPages.map((x) => [x.path, String(x.views)]),
    [],
    ['Referrer', 'Visits'],
    ...report.topReferrers.map((x) => [x.host, String(x.visits)]),
    [],
    ['Embedded on', 'Plays'],
    ...report.topEmbedHosts.map((x) => [x.host, String(x.plays)]),
  ];
  return toCsv(rows);
}

/**
 * Plays and play starts over the period of these tracks only (one page of /admin/tracks):
 * the reads are bounded by the page, not the catalogue (issue 37).
 */
export async function playsForTracks(
  tracks: readonly { id: number; audioFile: string }[],
  days: StatsPeriod,
  today = siteToday(),
): Promise<Record<number, { plays: number; starts: number }>> {
  const from = addDaysToDateString(today, -(days - 1));
  const [plays, starts] = await Promise.all([
    readDailyForKeys(
      'play',
      from,
      today,
      tracks.map((t) => String(t.id)),
    ),
    readDailyForKeys(
      'start',
      from,
      today,
      tracks.map((t) => t.audioFile),
    ),
  ]);
  const p = sumBy(plays);
  const s = sumBy(starts);
  return Object.fromEntries(
    tracks.map((t) => [t.id, { plays: p.get(String(t.id)) ?? 0, starts: s.get(t.audioFile) ?? 0 }]),
  );
}
