import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { ExternalLink } from '~/components/admin/icons';
import { buttonClass } from '~/components/ui/button';
import { countBlogPosts } from '~/models/blog-post.server';
import { countContactMessages, listContactMessages } from '~/models/contact-message.server';
import { countGalleryImages } from '~/models/gallery-image.server';
import { countNewsletters, listNewsletters } from '~/models/newsletter.server';
import { countShows, listNextShows } from '~/models/show.server';
import { countSubscribers, listSubscribers } from '~/models/subscriber.server';
import { getTheme } from '~/models/theme.server';
import { countTracks, getFeaturedTrack } from '~/models/track.server';
import { countUsers } from '~/models/user.server';
import { statsPeriod } from '~/schemas/stats';
import { statsReport } from '~/services/stats.server';
import { adminTitle } from '~/utils/seo/seo';

import { AnalyticsCard } from './analytics-card';
import { ContentCountList } from './content-counts';
import { RecentCards } from './recent-cards';
import { FeaturedTrackCard, SiteSettingsCard } from './site-cards';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Dashboard');

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
    report,
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
    listNextShows(3),
    getFeaturedTrack(),
    getTheme(),
    listNewsletters({ limit: 1 }),
    // ?days=7|30|90 (the period links); anything else shows 30 days.
    statsReport(statsPeriod(new URL(request.url).searchParams.get('days')) ?? 30),
  ]);
  return {
    username: user.username,
    counts: { tracks, images, posts, shows, subscribers },
    stats: { messages, users, newsletters, lastNewsletter: lastNewsletter[0] ?? null },
    recentMessages,
    recentSubscribers,
    upcomingShows,
    featured,
    report,
    theme: {
      headerFont: theme.headerFont,
      bodyFont: theme.bodyFont,
      appearance: theme.appearance,
      primary: theme.primary,
      weeklyRotation: theme.weeklyRotation,
    },
  };
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
    report,
  } = useLoaderData<typeof loader>();
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

      <ContentCountList counts={counts} />

      <div className="grid gap-6 lg:grid-cols-2">
        <RecentCards
          messages={recentMessages}
          subscribers={recentSubscribers}
          shows={upcomingShows}
        />
        <FeaturedTrackCard featured={featured} weeklyRotation={theme.weeklyRotation} />
        <SiteSettingsCard theme={theme} />
        <AnalyticsCard report={report} stats={stats} subscribers={counts.subscribers} />
      </div>
    </div>
  );
}
