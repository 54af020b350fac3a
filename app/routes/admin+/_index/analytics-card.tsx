import { Link } from '@remix-run/react';

import { DayChart, type DaySeries } from '~/components/admin/day-chart';
import { BarChart3, Download } from '~/components/admin/icons';
import { buttonClass } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { STATS_PERIODS } from '~/schemas/stats';
import type { NewsletterJSON } from '~/types/entities';
import type { DayFigures, StatsReport } from '~/types/stats';
import { cn } from '~/utils/cn';

import { shortDate } from './short-date';

export type ActivityStats = {
  messages: number;
  users: number;
  newsletters: number;
  lastNewsletter: NewsletterJSON | null;
};

function Total({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

/** A table's column headings: text columns, then figures (aligned right). */
function ColumnHeads({ left, right }: { left: string[]; right: string[] }) {
  const head = (label: string, className: string) => (
    <th key={label} scope="col" className={className}>
      {label}
    </th>
  );
  return (
    <thead className="text-muted-foreground">
      <tr>
        {left.map((label) => head(label, 'py-1 font-medium'))}
        {right.map((label) => head(label, 'py-1 text-right font-medium'))}
      </tr>
    </thead>
  );
}

function TopList({ title, empty, rows }: { title: string; empty: string; rows: TopRow[] }) {
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold">{title}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ol className="space-y-1 text-sm">
          {rows.map((row) => (
            <li key={row.key} className="flex justify-between gap-3">
              <span className="min-w-0 truncate">{row.label}</span>
              <span className="tabular-nums text-muted-foreground">{row.value}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

type TopRow = { label: React.ReactNode; value: string; key: string };

const row = (key: string | number, label: string, value: string): TopRow => ({
  key: String(key),
  label,
  value,
});

/** The period's top tracks, pages, referrers and embedding sites, in that order. */
const topLists = (report: StatsReport): { title: string; empty: string; rows: TopRow[] }[] => [
  {
    title: 'Top tracks',
    empty: 'No plays yet.',
    rows: report.topTracks.map((t) => row(t.id, t.title, `${t.plays} plays · ${t.starts} starts`)),
  },
  {
    title: 'Top pages',
    empty: 'No visits yet.',
    rows: report.topPages.map((p) => row(p.path, p.path, String(p.views))),
  },
  {
    title: 'Top referrers',
    empty: 'No visits from other sites yet.',
    rows: report.topReferrers.map((r) => row(r.host, r.host, String(r.visits))),
  },
  {
    title: 'Embedded on',
    empty: 'No plays from embeds yet.',
    rows: report.topEmbedHosts.map((r) => row(r.host, r.host, `${r.plays} plays`)),
  },
];

/** A chart's series: the main figure in the primary colour, a second one muted. */
const series = (label: string, values: number[], muted = false): DaySeries => ({
  label,
  values,
  className: muted ? 'text-muted-foreground' : 'text-primary',
});

/**
 * The dashboard's Analytics (decision 024): totals, plays and visits per day, top tracks,
 * pages and referrers, subscribers over time and the last newsletters, for 7, 30 or 90 days
 * (links: no JavaScript needed), with the figures as CSV.
 */
export function AnalyticsCard({
  report,
  stats,
  subscribers,
}: {
  report: StatsReport;
  stats: ActivityStats;
  subscribers: number;
}) {
  const days = report.daily.map((d) => d.day);
  const perDay = (figure: keyof Omit<DayFigures, 'day'>) => report.daily.map((d) => d[figure]);
  return (
    <Card
      title="Analytics"
      icon={BarChart3}
      className="lg:col-span-2"
      description={`${shortDate(report.from)} to ${shortDate(report.to)}. Counted without cookies: see the privacy policy.`}
      action={
        <a
          href={`/admin/stats.csv?days=${report.days}`}
          className={buttonClass('outline')}
          download
        >
          <Download aria-hidden="true" className="h-4 w-4" />
          Download CSV
        </a>
      }
    >
      <nav aria-label="Period" className="flex flex-wrap gap-2">
        {STATS_PERIODS.map((n) => (
          <Link
            key={n}
            to={`/admin?days=${n}`}
            preventScrollReset
            aria-current={n === report.days ? 'page' : undefined}
            className={cn(buttonClass(n === report.days ? 'primary' : 'outline', 'sm'))}
          >
            Last {n} days
          </Link>
        ))}
      </nav>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="dashboard-activity">
        <Total label="Plays" value={report.totals.plays} />
        <Total label="Visits" value={report.totals.visits} />
        <Total label="Page views" value={report.totals.views} />
        <Total label="Subscribers" value={subscribers} />
        <Total label="Contact messages" value={stats.messages} />
        <Total label="Newsletters sent" value={stats.newsletters} />
        <Total label="Registered accounts" value={stats.users} />
        <Total label="Play starts" value={report.totals.starts} />
      </dl>
      <div className="grid gap-6 xl:grid-cols-2">
        <DayChart
          title="Plays per day"
          days={days}
          series={[series('Plays', perDay('plays')), series('Play starts', perDay('starts'), true)]}
        />
        <DayChart
          title="Visits per day"
          days={days}
          series={[series('Visits', perDay('visits')), series('Page views', perDay('views'), true)]}
        />
      </div>
      <p className="text-xs text-muted-foreground">
        A play is a track heard for 30 seconds or to its end in the site&apos;s player; a play start
        is the audio asked for from its first byte (also without JavaScript). A visit is a
        visitor&apos;s first page in 30 minutes.
      </p>
      <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-4">
        {topLists(report).map((list) => (
          <TopList key={list.title} {...list} />
        ))}
      </div>
      <MixesTable mixes={report.mixes} />
      <div className="grid gap-6 xl:grid-cols-2">
        <DayChart
          title="Subscribers over time"
          kind="line"
          days={days}
          series={[
            series(
              'Active subscribers',
              report.subscribers.map((s) => s.total),
            ),
          ]}
        />
        <div>
          <h3 className="mb-2 text-sm font-semibold">Last newsletters</h3>
          {report.newsletters.length === 0 ? (
            <p className="text-sm text-muted-foreground">No newsletter sent yet.</p>
          ) : (
            <table className="w-full text-left text-sm">
              <ColumnHeads
                left={['Subject', 'Sent']}
                right={['Recipients', 'Delivered', 'Failed']}
              />
              <tbody>
                {report.newsletters.map((n) => (
                  <tr key={n.id} className="border-t border-border">
                    <td className="py-1">
                      <Link to={`/admin/newsletter/issues/${n.id}`} className="hover:underline">
                        {n.subject}
                      </Link>
                    </td>
                    <td className="py-1">{shortDate(n.sentAt)}</td>
                    <td className="py-1 text-right tabular-nums">{n.recipients}</td>
                    <td className="py-1 text-right tabular-nums">{n.sent}</td>
                    <td className="py-1 text-right tabular-nums">{n.failed}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </Card>
  );
}

/** Per mix: plays in the site's player and podcast feed downloads (decision 037). */
function MixesTable({ mixes }: { mixes: StatsReport['mixes'] }) {
  return (
    <div>
      <h3 id="mixes-stats-heading" className="mb-2 text-sm font-semibold">
        Mixes
      </h3>
      {mixes.length === 0 ? (
        <p className="text-sm text-muted-foreground">No mixes yet.</p>
      ) : (
        <table aria-labelledby="mixes-stats-heading" className="w-full text-left text-sm">
          <ColumnHeads left={['Mix']} right={['Plays', 'Feed downloads']} />
          <tbody>
            {mixes.map((m) => (
              <tr key={m.id} className="border-t border-border" data-testid="mix-stats-row">
                <th scope="row" className="max-w-0 truncate py-1 font-normal">
                  {m.title}
                </th>
                <td className="py-1 text-right tabular-nums">{m.plays}</td>
                <td className="py-1 text-right tabular-nums">{m.downloads}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="mt-1 text-xs text-muted-foreground">
        A feed download is a podcast app fetching an episode&apos;s audio, counted once per app and
        day however many pieces it asks for.
      </p>
    </div>
  );
}
