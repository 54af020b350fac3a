import { Link } from '@remix-run/react';

import { CalendarDays, Mail, MessageSquare } from '~/components/admin/icons';
import { buttonClass } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import type { ContactMessageJSON, ShowJSON, SubscriberJSON } from '~/types/entities';

import { shortDate } from './short-date';

/** The latest contact messages, each a link to the message. */
export function RecentMessagesCard({ messages }: { messages: ContactMessageJSON[] }) {
  return (
    <Card
      title="Recent Messages"
      icon={MessageSquare}
      action={
        <Link to="/admin/messages" className={buttonClass('outline', 'sm')}>
          View All Messages
        </Link>
      }
    >
      {messages.length === 0 ? (
        <p className="text-sm text-muted-foreground">No messages yet</p>
      ) : (
        <ul className="divide-y divide-border">
          {messages.map((m) => (
            <li key={m.id} className="py-2">
              <Link
                to={`/admin/messages/${m.id}`}
                className="group block rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="flex justify-between gap-2">
                  <span className="font-medium group-hover:underline">{m.name}</span>
                  <time dateTime={m.createdAt} className="shrink-0 text-xs text-muted-foreground">
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
  );
}

/** The newest subscribers, with a link to compose a newsletter. */
export function RecentSubscribersCard({ subscribers }: { subscribers: SubscriberJSON[] }) {
  return (
    <Card
      title="Recent Subscribers"
      icon={Mail}
      action={
        <Link to="/admin/newsletter?tab=compose" className={buttonClass('outline', 'sm')}>
          Send Newsletter
        </Link>
      }
    >
      {subscribers.length === 0 ? (
        <p className="text-sm text-muted-foreground">No subscribers yet</p>
      ) : (
        <ul className="divide-y divide-border">
          {subscribers.map((s) => (
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
  );
}

/** The next shows, soonest first. */
export function UpcomingShowsCard({ shows }: { shows: ShowJSON[] }) {
  return (
    <Card
      title="Upcoming Shows"
      icon={CalendarDays}
      action={
        <Link to="/admin/shows" className={buttonClass('outline', 'sm')}>
          Manage Shows
        </Link>
      }
    >
      {shows.length === 0 ? (
        <p className="text-sm text-muted-foreground">No upcoming shows</p>
      ) : (
        <ul className="divide-y divide-border" data-testid="dashboard-upcoming-shows">
          {shows.map((s) => (
            <li key={s.id} className="py-2">
              <p className="font-medium">{s.title}</p>
              <p className="text-sm text-muted-foreground">
                <time dateTime={s.date}>{shortDate(s.date)}</time> · {s.time} · {s.venue},{' '}
                {s.location}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
