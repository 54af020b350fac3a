import { Link } from '@remix-run/react';

import { Thumbnail } from '~/components/ui/thumbnail';
import type { FooterRelease, FooterShow } from '~/types/entities';
import { MEMBERS_ONLY } from '~/utils/access';
import { DATE_SHORT, formatSiteDate } from '~/utils/time';

import { QUICK_LINKS } from './nav-links';
import { SocialLinks, type SocialLinksConfig } from './social-icons';

const headingClass =
  'mb-4 font-heading text-sm font-bold uppercase tracking-widest text-foreground';
const linkClass = 'footer-link';

/** The links under the columns, in order. */
const LEGAL_LINKS = [
  { to: '/newsletter', label: 'Newsletter archive' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/auth', label: 'Admin Login' },
] as const;

function FooterLinks({
  links,
  className,
}: {
  links: readonly { to: string; label: string }[];
  className: string;
}) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to} className={linkClass}>
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** A column of the footer listing records: its heading, the records, or a line when there are none. */
function FooterList<T extends { id: number | string }>({
  id,
  title,
  empty,
  testId,
  items,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  testId: string;
  items: readonly T[];
  children: (item: T) => React.ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className={headingClass}>
        {title}
      </h2>
      {items.length === 0 ? (
        <p className="text-muted-foreground">{empty}</p>
      ) : (
        <ul className="space-y-3" data-testid={testId}>
          {items.map((item) => (
            <li key={item.id}>{children(item)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SiteFooter({
  siteName,
  footerText,
  social,
  latestReleases,
  upcomingShows,
  year,
}: {
  siteName: string;
  footerText: string;
  social: Partial<SocialLinksConfig>;
  latestReleases: FooterRelease[];
  upcomingShows: FooterShow[];
  year: number;
}) {
  return (
    <footer className="render-when-visible border-t border-border bg-card/40 text-sm [--placeholder-height:1170px] md:[--placeholder-height:460px]">
      <div className="container grid grid-cols-1 gap-10 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-brand">
          <h2 id="footer-brand" className="mb-3 font-heading text-lg font-bold tracking-wider">
            {siteName}
          </h2>
          <p className="text-muted-foreground">{footerText}</p>
          <SocialLinks social={social} className="-ml-2 mt-4" />
        </section>

        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className={headingClass}>
            Quick Links
          </h2>
          <FooterLinks links={QUICK_LINKS} className="space-y-2" />
        </nav>

        <FooterList
          id="footer-latest-releases"
          title="Latest Releases"
          empty="No releases yet."
          testId="footer-releases"
          items={latestReleases}
        >
          {(track) => (
            <Link
              to={`/music?track=${track.id}`}
              className="group flex items-center gap-3 rounded-md"
            >
              {/* The cover's smallest copy (320 px) is sharp at 40 px on any screen. */}
              <Thumbnail
                src={track.thumbnail}
                size={40}
                loading="lazy"
                decoding="async"
                className="h-10 w-10 shrink-0 rounded-md bg-muted object-cover"
              />
              <span className="min-w-0">
                <span className="block truncate font-medium text-foreground group-hover:text-primary">
                  {track.title}
                </span>
                <span className="block text-xs text-muted-foreground">
                  {`${track.type} • ${year}${track.locked ? ` • ${MEMBERS_ONLY}` : ''}`}
                </span>
              </span>
            </Link>
          )}
        </FooterList>

        <FooterList
          id="footer-upcoming-shows"
          title="Upcoming Shows"
          empty="No upcoming shows."
          testId="footer-shows"
          items={upcomingShows}
        >
          {(show) => (
            <Link to="/shows" className="group block">
              <span className="block font-medium text-foreground group-hover:text-primary">
                {show.venue}
              </span>
              {/* The date as text, no <time datetime>: link scrapers take the first one they
                  find for the date of the page (the shows page marks its dates up). */}
              <span className="block text-xs text-muted-foreground">
                {formatSiteDate(show.date, DATE_SHORT)} • {show.location}
              </span>
            </Link>
          )}
        </FooterList>
      </div>
      <div className="border-t border-border">
        <div className="container flex flex-col items-center justify-between gap-3 py-6 text-muted-foreground sm:flex-row">
          <p>{`© ${year} ${siteName}. All rights reserved.`}</p>
          <FooterLinks
            links={LEGAL_LINKS}
            className="flex flex-wrap items-center gap-x-4 gap-y-1"
          />
        </div>
      </div>
    </footer>
  );
}
