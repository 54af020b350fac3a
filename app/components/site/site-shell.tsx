import { useRootData, useSiteName } from '~/document/use-root-data';
import { PlayerBar } from '~/player/player-bar';
import { currentSiteYear } from '~/utils/time';

import { MobileBottomBar } from './mobile-bottom-bar';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { Toaster } from './toaster';

/**
 * The app shell around every page: header, main area, footer, the bottom area holding the player
 * (full bar on md+, mini bar plus the mobile bottom bar on small screens) and the toasts.
 * Mount it inside <PlayerProvider>; the route content goes in as children (<Outlet/>).
 */
export function SiteShell({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const siteName = useSiteName();
  const social = root?.site.social ?? {};
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[70] rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to content
      </a>
      <SiteHeader siteName={siteName} user={root?.user ?? null} social={social} />
      <main id="main" tabIndex={-1} className="min-h-[60vh] outline-none">
        {children}
      </main>
      <SiteFooter
        siteName={siteName}
        footerText={root?.theme.footerText ?? ''}
        social={social}
        latestReleases={root?.latestReleases ?? []}
        upcomingShows={root?.upcomingShows ?? []}
        year={root?.year ?? currentSiteYear()}
      />
      {/* Sticky at the end of the page: fixed to the viewport bottom while scrolling, yet it
          takes its own room after the footer, so it never covers the footer's last line. */}
      <div className="sticky bottom-0 z-40" data-testid="bottom-area">
        <div className="hidden md:block">
          <PlayerBar mode="full" />
        </div>
        <div className="md:hidden">
          <PlayerBar mode="mini" />
          <MobileBottomBar />
        </div>
      </div>
      <Toaster flash={root?.toast ?? null} />
    </>
  );
}
