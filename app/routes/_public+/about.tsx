import type { MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { Mail } from '~/components/site/icons';
import { PageHeader } from '~/components/site/section-heading';
import { ALL_NETWORKS, SocialLinks } from '~/components/site/social-icons';
import { buttonClass } from '~/components/ui/button';
import { NewTabLink } from '~/components/ui/new-tab-link';
import { ResponsiveImage } from '~/components/ui/responsive-image';
import { useRootData, useSiteName } from '~/document/use-root-data';
import { listNextShows } from '~/models/show.server';
import { musicGroupLd, seoMeta, seoSite, socialLinks } from '~/utils/seo/seo';
import { DATE_SHORT, formatSiteDate } from '~/utils/time';

export const meta: MetaFunction = ({ matches, location }) => {
  const site = seoSite(matches);
  return seoMeta({
    ...site,
    title: 'About',
    description: `The story of ${site.siteName}, an electronic music collective from the Jersey Shore.`,
    url: location.pathname,
    type: 'profile',
    jsonLd: musicGroupLd({ ...site, image: '/og-default.jpg', sameAs: socialLinks(matches) }),
  });
};

/** The About page's table shows the next three real shows (an improvement on the reference). */
const ABOUT_SHOWS = 3;

export async function loader() {
  return { shows: await listNextShows(ABOUT_SHOWS) };
}

const SHOW_COLUMNS = ['Date', 'Venue', 'Location', 'Tickets'] as const;

const PHOTOS = [
  {
    src: '/images/about/on-stage.jpg',
    alt: 'The collective performing on stage under purple lights',
  },
  {
    src: '/images/about/studio-night.jpg',
    alt: 'Synthesizers and a mixing desk during a late studio session',
  },
  { src: '/images/about/boardwalk-crew.jpg', alt: 'The crew on the boardwalk at dusk' },
];

const STORY = [
  {
    title: 'The Beginning',
    text: 'It started with borrowed synths and a spare room a few blocks from the ocean: a handful of friends swapping loops after their shifts on the boardwalk, playing them back at the beach at night.',
  },
  {
    title: 'Evolution',
    text: 'Basement parties turned into club residencies. The sound grew from lo-fi loops into layered, cinematic sets that mix live instruments, field recordings from the shore and heavy analog bass.',
  },
  {
    title: 'Today',
    text: 'Today the collective writes, records and produces everything in its own studio, plays up and down the East Coast and keeps its doors open to new artists from the Shore.',
  },
];

function AboutSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-8 text-3xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function AboutPage() {
  const { shows } = useLoaderData<typeof loader>();
  const root = useRootData();
  const siteName = useSiteName();
  return (
    <>
      <PageHeader
        title={`About ${siteName}`}
        intro="An electronic music collective born on the Jersey Shore, making music for the hours after midnight."
      />
      <div className="container space-y-20 py-12">
        <section aria-labelledby="intro-title" className="grid gap-10 lg:grid-cols-2">
          <div className="space-y-4 text-lg text-muted-foreground">
            <h2 id="intro-title" className="text-3xl font-bold text-foreground">
              Who we are
            </h2>
            <p>
              {siteName} is a loose family of producers, DJs and visual artists who grew up with the
              sound of the surf and the hum of the boardwalk. We make synth-driven electronic music:
              slow-burning, melodic and built for the night drive home.
            </p>
            <p>
              Every release, show and visual is made in-house, from the first sketch to the last
              mix. Follow along wherever you listen.
            </p>
            <SocialLinks
              social={root?.site.social ?? {}}
              networks={ALL_NETWORKS}
              withLabels
              className="gap-2 pt-2"
              linkClassName="border border-border text-sm text-foreground"
            />
            <div className="pt-4">
              <Link to="/contact" className={buttonClass('primary', 'lg')}>
                <Mail aria-hidden="true" className="h-5 w-5" />
                Get in Touch
              </Link>
            </div>
          </div>
          <ul className="grid grid-cols-2 gap-4">
            {PHOTOS.map((photo, index) => (
              <li key={photo.src} className={index === 0 ? 'col-span-2' : undefined}>
                {/* Derivatives of the committed photos (scripts/public-images.ts). */}
                <ResponsiveImage
                  src={photo.src}
                  alt={photo.alt}
                  width={1200}
                  height={900}
                  widths={[320, 640, 960]}
                  webpWidths={[320, 640, 960, 1200]}
                  sizes={
                    index === 0
                      ? '(min-width: 1400px) 640px, (min-width: 1024px) 50vw, 100vw'
                      : '(min-width: 1400px) 312px, (min-width: 1024px) 25vw, 50vw'
                  }
                  priority={index === 0}
                  className="aspect-[4/3] w-full rounded-lg bg-muted object-cover"
                />
              </li>
            ))}
          </ul>
        </section>

        <AboutSection id="story-title" title="Our Story">
          <ol className="grid gap-6 md:grid-cols-3">
            {STORY.map((step, index) => (
              <li key={step.title} className="rounded-lg border border-border bg-card p-6">
                <span
                  aria-hidden="true"
                  className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-primary font-heading font-bold text-primary-foreground"
                >
                  {index + 1}
                </span>
                <h3 className="mt-4 text-xl font-bold">{step.title}</h3>
                <p className="mt-2 text-muted-foreground">{step.text}</p>
              </li>
            ))}
          </ol>
        </AboutSection>

        <AboutSection id="about-shows-title" title="Upcoming Shows">
          {shows.length === 0 ? (
            <p className="text-muted-foreground">
              No upcoming shows right now. Check back soon for new dates.
            </p>
          ) : (
            <div className="overflow-x-auto rounded-lg border border-border">
              <table className="w-full text-left text-sm" data-testid="about-shows">
                <thead className="bg-muted/50 text-xs uppercase tracking-wider text-muted-foreground">
                  <tr>
                    {SHOW_COLUMNS.map((column) => (
                      <th key={column} scope="col" className="px-4 py-3">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {shows.map((show) => (
                    <tr key={show.id} className="border-t border-border">
                      <td className="whitespace-nowrap px-4 py-3">
                        <time dateTime={show.date}>{formatSiteDate(show.date, DATE_SHORT)}</time>
                      </td>
                      <th scope="row" className="px-4 py-3 font-semibold">
                        {show.venue}
                      </th>
                      <td className="px-4 py-3 text-muted-foreground">{show.location}</td>
                      <td className="px-4 py-3">
                        {show.ticketUrl ? (
                          <NewTabLink
                            href={show.ticketUrl}
                            className={buttonClass('outline', 'sm')}
                          >
                            Buy Tickets
                            <span className="sr-only"> for {show.venue} (opens in a new tab)</span>
                          </NewTabLink>
                        ) : (
                          <span className="text-muted-foreground">Tickets TBA</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <p className="mt-4">
            <Link to="/shows" className="font-semibold text-primary hover:underline">
              See all shows
            </Link>
          </p>
        </AboutSection>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
