import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { format, parseISO } from 'date-fns';
import {
  BarChart3,
  CalendarDays,
  ExternalLink,
  FileText,
  Image as ImageIcon,
  Mail,
  MessageSquare,
  Music,
  Palette,
  Star,
  type LucideIcon,
} from 'lucide-react';
import { countBlogPosts } from '~/models/blog-post.server';
import { countContactMessages, listContactMessages } from '~/models/contact-message.server';
import { countGalleryImages } from '~/models/gallery-image.server';
import { countNewsletters, listNewsletters } from '~/models/newsletter.server';
import { countShows, listUpcomingShows } from '~/models/show.server';
import { countSubscribers, listSubscribers } from '~/models/subscriber.server';
import { getTheme } from '~/models/theme.server';
import { countTracks, getFeaturedTrack } from '~/models/track.server';
import { countUsers } from '~/models/user.server';
import { buttonClass } from '~/components/ui/button';
import { requireAdmin } from '~/auth/auth.server';
import { cn } from '~/utils/cn';

export const meta: MetaFunction = () => [{ title: 'Dashboard | Admin | Night Shore' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const [
    tracks,
    images,
    posts,
    shows,
    subscribers,
    messages,
    users,
    newsletters,
    recentMessages,
    recentSubscribers,
    upcomingShows,
    featured,
    theme,
    lastNewsletter,
  ] = await Promise.all([
    countTracks(),
    countGalleryImages(),
    countBlogPosts(),
    countShows(),
    countSubscribers(),
    countContactMessages(),
    countUsers(),
    countNewsletters(),
    listContactMessages({ limit: 5 }),
    listSubscribers({ limit: 5 }),
    listUpcomingShows({ limit: 3 }),
    getFeaturedTrack(),
    getTheme(),
    listNewsletters({ limit: 1 }),
  ]);
  return {
    username: user.username,
    counts: { tracks, images, posts, shows, subscribers },
    stats: { messages, users, newsletters, lastNewsletter: lastNewsletter[0] ?? null },
    recentMessages,
    recentSubscribers,
    upcomingShows,
    featured,
    theme: {
      headerFont: theme.headerFont,
      bodyFont: theme.bodyFont,
      appearance: theme.appearance,
      primary: theme.primary,
      weeklyRotation: theme.weeklyRotation,
    },
  };
}

const shortDate = (iso: string) => format(parseISO(iso), 'MMM d, yyyy');

function Card({
  title,
  icon: Icon,
  action,
  children,
  className,
}: {
  title: string;
  icon: LucideIcon;
  action?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  const id = `card-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className={cn('flex flex-col rounded-lg border border-border bg-card p-5', className)}
    >
      <div className="mb-4 flex items-center justify-between gap-2">
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold">
          <Icon aria-hidden="true" className="h-5 w-5 text-primary" />
          {title}
        </h2>
      </div>
      <div className="flex-1">{children}</div>
      {action ? <div className="mt-4">{action}</div> : null}
    </section>
  );
}

export default function AdminDashboard() {
  const {
    username,
    counts,
    stats,
    recentMessages,
    recentSubscribers,
    upcomingShows,
    featured,
    theme,
  } = useLoaderData<typeof loader>();
  const countCards = [
    { label: 'Tracks', value: counts.tracks, to: '/admin/tracks', icon: Music },
    { label: 'Gallery Images', value: counts.images, to: '/admin/gallery', icon: ImageIcon },
    { label: 'Blog Posts', value: counts.posts, to: '/admin/blog', icon: FileText },
    { label: 'Shows', value: counts.shows, to: '/admin/shows', icon: CalendarDays },
    { label: 'Subscribers', value: counts.subscribers, to: '/admin/newsletter', icon: Mail },
  ];
  return (
    <div className="space-y-8">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="font-heading text-3xl font-bold">Welcome back, {username}</h1>
          <p className="mt-1 text-muted-foreground">Here is what is happening on the site.</p>
        </div>
        <Link to="/" className={buttonClass('outline')}>
          <ExternalLink aria-hidden="true" className="h-4 w-4" />
          View Site
        </Link>
      </header>

      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5" aria-label="Content counts">
        {countCards.map(({ label, value, to, icon: Icon }) => (
          <li
            key={label}
            className="rounded-lg border border-border bg-card p-5"
            data-testid="count-card"
          >
            <div className="flex items-center justify-between">
              <p className="text-sm font-medium text-muted-foreground">{label}</p>
              <Icon aria-hidden="true" className="h-4 w-4 text-primary" />
            </div>
            <p className="mt-2 text-3xl font-bold">{value}</p>
            <Link
              to={to}
              className="mt-3 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              Manage<span className="sr-only"> {label}</span>
            </Link>
          </li>
        ))}
      </ul>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card
          title="Recent Messages"
          icon={MessageSquare}
          action={
            <Link to="/admin/messages" className={buttonClass('outline', 'sm')}>
              View All Messages
            </Link>
          }
        >
          {recentMessages.length === 0 ? (
            <p className="text-sm text-muted-foreground">No messages yet</p>
          ) : (
            <ul className="divide-y divide-border">
              {recentMessages.map((m) => (
                <li key={m.id} className="py-2">
                  <Link
                    to={`/admin/messages/${m.id}`}
                    className="group block rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <span className="flex justify-between gap-2">
                      <span className="font-medium group-hover:underline">{m.name}</span>
                      <time
                        dateTime={m.createdAt}
                        className="shrink-0 text-xs text-muted-foreground"
                      >
                        {shortDate(m.createdAt)}
                      </time>
                    </span>
                    <span className="block truncate text-sm text-muted-foreground">
                      {m.subject} — {m.message}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card
          title="Recent Subscribers"
          icon={Mail}
          action={
            <Link to="/admin/newsletter?tab=compose" className={buttonClass('outline', 'sm')}>
              Send Newsletter
            </Link>
          }
        >
          {recentSubscribers.length === 0 ? (
            <p className="text-sm text-muted-foreground">No subscribers yet</p>
          ) : (
            <ul className="divide-y divide-border">
              {recentSubscribers.map((s) => (
                <li key={s.id} className="flex justify-between gap-2 py-2">
                  <span className="min-w-0">
                    <span className="block font-medium">{s.name || s.email}</span>
                    <span className="block truncate text-sm text-muted-foreground">{s.email}</span>
                  </span>
                  <time dateTime={s.createdAt} className="shrink-0 text-xs text-muted-foreground">
                    {shortDate(s.createdAt)}
                  </time>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card
          title="Upcoming Shows"
          icon={CalendarDays}
          action={
            <Link to="/admin/shows" className={buttonClass('outline', 'sm')}>
              Manage Shows
            </Link>
          }
        >
          {upcomingShows.length === 0 ? (
            <p className="text-sm text-muted-foreground">No upcoming shows</p>
          ) : (
            <ul className="divide-y divide-border" data-testid="dashboard-upcoming-shows">
              {upcomingShows.map((s) => (
                <li key={s.id} className="py-2">
                  <p className="font-medium">{s.title}</p>
                  <p className="text-sm text-muted-foreground">
                    <time dateTime={s.date}>{format(parseISO(s.date), 'MMM d, yyyy')}</time> ·{' '}
                    {s.time} · {s.venue}, {s.location}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card
          title="Featured Track"
          icon={Star}
          action={
            <Link to="/admin/tracks?tab=featured" className={buttonClass('outline', 'sm')}>
              Manage Tracks
            </Link>
          }
        >
          {featured ? (
            <div className="flex items-center gap-4" data-testid="dashboard-featured-track">
              <img
                src={featured.coverImage}
                alt=""
                width={80}
                height={80}
                className="h-20 w-20 rounded-md object-cover"
              />
              <div>
                <p className="font-semibold">{featured.title}</p>
                {featured.album ? (
                  <p className="text-sm text-muted-foreground">{featured.album}</p>
                ) : null}
                {theme.weeklyRotation ? (
                  <p className="mt-1 text-xs text-muted-foreground">Weekly rotation is on</p>
                ) : null}
              </div>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">No featured track set</p>
          )}
        </Card>

        <Card
          title="Site Settings"
          icon={Palette}
          action={
            <Link to="/admin/settings" className={buttonClass('outline', 'sm')}>
              Edit Site Settings
            </Link>
          }
        >
          <dl className="grid grid-cols-2 gap-2 text-sm">
            <dt className="text-muted-foreground">Appearance</dt>
            <dd className="capitalize">{theme.appearance}</dd>
            <dt className="text-muted-foreground">Primary colour</dt>
            <dd className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className="h-4 w-4 rounded-full border border-border"
                style={{ background: theme.primary }}
              />
              {theme.primary}
            </dd>
            <dt className="text-muted-foreground">Fonts</dt>
            <dd>
              {theme.headerFont} / {theme.bodyFont}
            </dd>
          </dl>
        </Card>

        <Card title="Activity" icon={BarChart3}>
          <dl className="grid grid-cols-2 gap-4" data-testid="dashboard-activity">
            <div>
              <dt className="text-sm text-muted-foreground">Contact messages</dt>
              <dd className="text-2xl font-bold">{stats.messages}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted-foreground">Subscribers</dt>
              <dd className="text-2xl font-bold">{counts.subscribers}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted-foreground">Newsletters sent</dt>
              <dd className="text-2xl font-bold">{stats.newsletters}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted-foreground">Registered accounts</dt>
              <dd className="text-2xl font-bold">{stats.users}</dd>
            </div>
          </dl>
          {stats.lastNewsletter ? (
            <p className="mt-4 text-sm text-muted-foreground">
              Last newsletter: “{stats.lastNewsletter.subject}” on{' '}
              {shortDate(stats.lastNewsletter.sentAt)} to {stats.lastNewsletter.sentCount}{' '}
              subscribers
            </p>
          ) : null}
        </Card>
      </div>
    </div>
  );
}
