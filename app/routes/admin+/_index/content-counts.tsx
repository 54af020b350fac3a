import { Link } from '@remix-run/react';

import { CalendarDays, FileText, ImageIcon, Mail, Music } from '~/components/admin/icons';

export type ContentCounts = {
  tracks: number;
  images: number;
  posts: number;
  shows: number;
  subscribers: number;
};

/** One tile per kind of content: how many there are and a link to manage them. */
export function ContentCountList({ counts }: { counts: ContentCounts }) {
  const countCards = [
    { label: 'Tracks', value: counts.tracks, to: '/admin/tracks', icon: Music },
    { label: 'Gallery Images', value: counts.images, to: '/admin/gallery', icon: ImageIcon },
    { label: 'Blog Posts', value: counts.posts, to: '/admin/blog', icon: FileText },
    { label: 'Shows', value: counts.shows, to: '/admin/shows', icon: CalendarDays },
    { label: 'Subscribers', value: counts.subscribers, to: '/admin/newsletter', icon: Mail },
  ];
  return (
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
  );
}
