import { Link } from '@remix-run/react';

import type { FooterRelease, FooterShow } from '~/types/entities';
import { MEMBERS_ONLY } from '~/utils/access';
import { DATE_SHORT, formatSiteDate } from '~/utils/time';

import { QUICK_LINKS } from './nav-links';
import { SocialLinks, type SocialLinksConfig } from './social-icons';

const headingClass =
  'mb-4 font-heading text-sm font-bold uppercase tracking-widest text-foreground';
const linkClass = 'footer-link';

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
          <ul className="space-y-2">
            {QUICK_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <section aria-labelledby="footer-latest-releases">
          <h2 id="footer-latest-releases" className={headingClass}>
            Latest Releases
          </h2>
          {latestReleases.length === 0 ? (
            <p className="text-muted-foreground">No releases yet.</p>
          ) : (
            <ul className="space-y-3" data-testid="footer-releases">
              {latestReleases.map((track) => (
                <li key={track.id}>
                  <Link
                    to={`/music?track=${track.id}`}
                    className="group flex items-center gap-3 rounded-md"
                  >
                    {/* The cover's smallest copy (320 px) is sharp at 40 px on any screen. */}
                    <img
                      src={track.thumbnail}
                      alt=""
                      width={40}
                      height={40}
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
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="footer-upcoming-shows">
          <h2 id="footer-upcoming-shows" className={headingClass}>
            Upcoming Shows
          </h2>
          {upcomingShows.length === 0 ? (
            <p className="text-muted-foreground">No upcoming shows.</p>
          ) : (
            <ul className="space-y-3" data-testid="footer-shows">
              {upcomingShows.map((show) => (
                <li key={show.id}>
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
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <div className="border-t border-border">
        <div className="container flex flex-col items-center justify-between gap-3 py-6 text-muted-foreground sm:flex-row">
          <p>{`© ${year} ${siteName}. All rights reserved.`}</p>
          <ul className="flex flex-wrap items-center gap-x-4 gap-y-1">
            <li>
              <Link to="/newsletter" className={linkClass}>
                Newsletter archive
              </Link>
            </li>
            <li>
              <Link to="/privacy" className={linkClass}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/terms" className={linkClass}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link to="/auth" className={linkClass}>
                Admin Login
              </Link>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
