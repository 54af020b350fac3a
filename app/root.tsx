import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, useLoaderData, useRouteLoaderData } from '@remix-run/react';

import { getUser } from '~/auth/auth.server';
import { sessionRefreshHeaders } from '~/auth/session-refresh.server';
import { combineHeaders, getToast } from '~/auth/toast.server';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { SiteShell } from '~/components/site/site-shell';
import { DeferredHydration } from '~/document/deferred-hydration';
import { useNonce } from '~/document/request-info';
import { ScrollRestoration } from '~/document/scroll-restoration';
import { DEFAULT_THEME_HEAD, type ThemeHead } from '~/document/theme-head';
import { themeStylesheet } from '~/document/theme-stylesheet.server';
import { imageInfos } from '~/files/image-derivatives.server';
import { listFavouriteTrackIds } from '~/models/favourite.server';
import { listNextShows } from '~/models/show.server';
import { getTheme } from '~/models/theme.server';
import { listLatestTrackTeasers } from '~/models/track-lists.server';
import { loadOr503 } from '~/platform/http-errors.server';
import { getSiteConfig } from '~/platform/site-config.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { PlayerProvider } from '~/player/player-provider';
import { HydratedProvider } from '~/player/use-hydrated';
import tailwindHref from '~/styles/tailwind.css';
import type { FooterRelease, FooterShow } from '~/types/entities';
import { isMembersOnly } from '~/utils/access';
import { PLACEHOLDER_COVER, smallestImageUrl } from '~/utils/image-url';
import { DEFAULT_SITE_NAME, seoSite } from '~/utils/seo/seo';
import { currentSiteYear } from '~/utils/time';

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
];

export const meta: MetaFunction = ({ matches }) => [{ title: seoSite(matches).siteName }];

/** The footer's Latest Releases (SPEC: at most 5) and Upcoming Shows (the next 5). */
const FOOTER_RELEASES = 5;
const FOOTER_SHOWS = 5;

export async function loader({ request }: LoaderFunctionArgs) {
  return loadOr503(request, async () => {
    const [user, theme, { toast, headers }, latest, shows, sessionHeaders] = await Promise.all([
      getUser(request),
      getTheme(),
      getToast(request),
      // The footer reads what it shows (issue 37, decision 044): the 5 latest releases' teaser
      // fields, and the next 5 upcoming shows.
      listLatestTrackTeasers(FOOTER_RELEASES),
      listNextShows(FOOTER_SHOWS),
      sessionRefreshHeaders(request),
    ]);
    // A member's favourites live in the account (decision 019); a visitor's in local storage.
    const favouriteIds = user ? await listFavouriteTrackIds(user.id) : null;
    // The footer lists members-only releases too, as the visitor may see them (no audio file).
    // It gets only what it shows (issue 19): title, type, lock and a 40 px cover, whose smallest
    // derivative is enough.
    const covers = await imageInfos(latest.map((t) => t.coverImage));
    const latestReleases: FooterRelease[] = latest.map((track) => {
      const { id, title, type } = track;
      const locked = user === null && isMembersOnly(track);
      const cover = track.coverImage || PLACEHOLDER_COVER;
      return { id, title, type, locked, thumbnail: smallestImageUrl(cover, covers[cover]) };
    });
    const upcomingShows: FooterShow[] = shows.map(({ id, venue, location, date }) => ({
      id,
      venue,
      location,
      date,
    }));
    // The theme's fonts and colours are one versioned stylesheet (/theme.css), so neither the
    // browser bundle nor the page's data carries theme code, CSS or font URLs.
    const sheet = themeStylesheet(theme);
    const head: ThemeHead = {
      appearance: theme.appearance,
      stylesheets: [...sheet.fontLinks, sheet.href],
      css: '',
    };
    return data(
      {
        user,
        theme,
        head,
        toast,
        site: { ...getSiteConfig(), siteUrl: siteOrigin() },
        latestReleases,
        favouriteIds,
        upcomingShows,
        year: currentSiteYear(),
      },
      { headers: combineHeaders(headers, sessionHeaders) },
    );
  });
}

/** Once the page has hydrated and swapped its no-JS fallbacks (see HydratedProvider). */
function markHydrated() {
  document.documentElement.dataset.hydrated = 'true';
}

function Document({
  children,
  head,
  siteName,
}: {
  children: React.ReactNode;
  head: ThemeHead;
  siteName: string;
}) {
  const nonce = useNonce();
  return (
    // Flips the one shared `useHydrated` flag: every no-JS fallback swaps in the same commit.
    // Pages hydrate after `load` (decision 012): the document says when they have, and the
    // swap is done, for the end-to-end tests (and for any style that should wait for it).
    <HydratedProvider onHydrated={markHydrated}>
      <html
        lang="en"
        className={
          head.appearance === 'dark' ? 'dark' : head.appearance === 'light' ? 'light' : undefined
        }
      >
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <Meta />
          <link rel="stylesheet" href={tailwindHref} />
          {head.stylesheets.map((href) => (
            <link key={href} rel="stylesheet" href={href} />
          ))}
          <Links />
          <link
            rel="alternate"
            type="application/rss+xml"
            title={`${siteName} Blog`}
            href="/blog/rss.xml"
          />
          <link
            rel="alternate"
            type="application/rss+xml"
            title={`${siteName} podcast`}
            href="/podcast.xml"
          />
          {head.css ? <style dangerouslySetInnerHTML={{ __html: head.css }} /> : null}
        </head>
        <body className="min-h-screen">
          {children}
          <ScrollRestoration nonce={nonce} />
          <DeferredHydration nonce={nonce} />
          <Scripts nonce={nonce} />
        </body>
      </html>
    </HydratedProvider>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  return (
    <Document head={data.head} siteName={data.site.siteName}>
      {/* The provider owns the single <audio>, outside <Outlet/>: navigations never remount it. */}
      <PlayerProvider assetHost={data.site.assetHost} accountFavourites={data.favouriteIds}>
        <SiteShell>
          <Outlet />
        </SiteShell>
      </PlayerProvider>
    </Document>
  );
}

/** A failure of the root loader (the database down for every page): the same boundary, in the document. */
export function ErrorBoundary() {
  const root = useRouteLoaderData<typeof loader>('root');
  return (
    <Document
      head={root?.head ?? DEFAULT_THEME_HEAD}
      siteName={root?.site.siteName ?? DEFAULT_SITE_NAME}
    >
      <main>
        <GeneralErrorBoundary />
      </main>
    </Document>
  );
}
