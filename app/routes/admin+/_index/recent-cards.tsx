import { Link } from '@remix-run/react';

import { CalendarDays, Mail, MessageSquare } from '~/components/admin/icons';
import type { ContactMessageJSON, ShowJSON, SubscriberJSON } from '~/types/entities';

import { DashboardListCard, RowDate } from './dashboard-card';
import { shortDate } from './short-date';

/** Each list's card: its title and icon, its link on to the section, its line when empty. */
const CARDS = {
  messages: {
    title: 'Recent Messages',
    icon: MessageSquare,
    link: { to: '/admin/messages', label: 'View All Messages' },
    empty: 'No messages yet',
  },
  subscribers: {
    title: 'Recent Subscribers',
    icon: Mail,
    link: { to: '/admin/newsletter?tab=compose', label: 'Send Newsletter' },
    empty: 'No subscribers yet',
    itemClassName: 'flex justify-between gap-2 py-2',
  },
  shows: {
    title: 'Upcoming Shows',
    icon: CalendarDays,
    link: { to: '/admin/shows', label: 'Manage Shows' },
    empty: 'No upcoming shows',
    testId: 'dashboard-upcoming-shows',
  },
};

/** A message: a link to it, from whom and when, its subject and the start of its text. */
const messageRow = (m: ContactMessageJSON) => (
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
);

const subscriberRow = (s: SubscriberJSON) => (
  <>
    <span className="min-w-0">
      <span className="block font-medium">{s.name || s.email}</span>
      <span className="block truncate text-sm text-muted-foreground">{s.email}</span>
    </span>
    <RowDate iso={s.createdAt} />
  </>
);

const showRow = (s: ShowJSON) => (
  <>
    <p className="font-medium">{s.title}</p>
    <p className="text-sm text-muted-foreground">
      <time dateTime={s.date}>{shortDate(s.date)}</time> · {s.time} · {s.venue}, {s.location}
    </p>
  </>
);

/**
 * The dashboard's lists of the latest records: the contact messages, the newest subscribers
 * (with a link to compose a newsletter) and the next shows, soonest first.
 */
export function RecentCards({
  messages,
  subscribers,
  shows,
}: {
  messages: ContactMessageJSON[];
  subscribers: SubscriberJSON[];
  shows: ShowJSON[];
}) {
  return (
    <>
      <DashboardListCard {...CARDS.messages} items={messages}>
        {messageRow}
      </DashboardListCard>
      <DashboardListCard {...CARDS.subscribers} items={subscribers}>
        {subscriberRow}
      </DashboardListCard>
      <DashboardListCard {...CARDS.shows} items={shows}>
        {showRow}
      </DashboardListCard>
    </>
  );
}
