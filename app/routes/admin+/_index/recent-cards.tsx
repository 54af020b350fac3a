import { Link } from '@remix-run/react';

import { CalendarDays, Mail, MessageSquare } from '~/components/admin/icons';
import type { ContactMessageJSON, ShowJSON, SubscriberJSON } from '~/types/entities';

import { DashboardListCard, RowDate } from './dashboard-card';
import { shortDate } from './short-date';

/** The latest contact messages, each a link to the message. */
export function RecentMessagesCard({ messages }: { messages: ContactMessageJSON[] }) {
  return (
    <DashboardListCard
      title="Recent Messages"
      icon={MessageSquare}
      link={{ to: '/admin/messages', label: 'View All Messages' }}
      items={messages}
      empty="No messages yet"
    >
      {(m) => (
        <Link
          to={`/admin/messages/${m.id}`}
          className="group block rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="flex justify-between gap-2">
            <span className="font-medium group-hover:underline">{m.name}</span>
            <RowDate iso={m.createdAt} />
          </span>
          <span className="block truncate text-sm text-muted-foreground">
            {m.subject} — {m.message}
          </span>
        </Link>
      )}
    </DashboardListCard>
  );
}

/** The newest subscribers, with a link to compose a newsletter. */
export function RecentSubscribersCard({ subscribers }: { subscribers: SubscriberJSON[] }) {
  return (
    <DashboardListCard
      title="Recent Subscribers"
      icon={Mail}
      link={{ to: '/admin/newsletter?tab=compose', label: 'Send Newsletter' }}
      items={subscribers}
      empty="No subscribers yet"
      itemClassName="flex justify-between gap-2 py-2"
    >
      {(s) => (
        <>
          <span className="min-w-0">
            <span className="block font-medium">{s.name || s.email}</span>
            <span className="block truncate text-sm text-muted-foreground">{s.email}</span>
          </span>
          <RowDate iso={s.createdAt} />
        </>
      )}
    </DashboardListCard>
  );
}

/** The next shows, soonest first. */
export function UpcomingShowsCard({ shows }: { shows: ShowJSON[] }) {
  return (
    <DashboardListCard
      title="Upcoming Shows"
      icon={CalendarDays}
      link={{ to: '/admin/shows', label: 'Manage Shows' }}
      items={shows}
      empty="No upcoming shows"
      testId="dashboard-upcoming-shows"
    >
      {(s) => (
        <>
          <p className="font-medium">{s.title}</p>
          <p className="text-sm text-muted-foreground">
            <time dateTime={s.date}>{shortDate(s.date)}</time> · {s.time} · {s.venue}, {s.location}
          </p>
        </>
      )}
    </DashboardListCard>
  );
}
