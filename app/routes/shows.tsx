import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { CalendarDays, CalendarPlus, Clock, MapPin, Ticket } from 'lucide-react';
import { listShowsSplit } from '~/models/show.server';
import type { ShowJSON } from '~/types/entities';
import { EmptyState, PageHeader } from '~/components/site/section-heading';
import { RouteErrorBoundary } from '~/components/site/route-error-boundary';
import { buttonClass } from '~/components/ui/button';
import { DATE_FULL, DATE_SHORT, formatSiteDate } from '~/utils/time';
import { musicEventLd, seoMeta, seoSite } from '~/utils/seo/seo';

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = seoSite(matches);
  const shows = data && 'upcoming' in data ? [...data.upcoming, ...data.past] : [];
  return seoMeta({
    ...site,
    title: 'Shows',
    description: 'Upcoming and past Night Shore shows, with venues, dates and tickets.',
    url: location.pathname,
    jsonLd: shows.map((s) => musicEventLd(s, site)),
  });
};

export const SHOWS_ERROR_TEXT = 'Unable to load upcoming shows. Please try again later.';

export async function loader() {
  try {
    const { upcoming, past } = await listShowsSplit();
    return { ok: true as const, upcoming, past };
  } catch (error) {
    console.error('Loading shows failed', error);
    return { ok: false as const, upcoming: [] as ShowJSON[], past: [] as ShowJSON[] };
  }
}

function TicketLink({ show, className }: { show: ShowJSON; className?: string }) {
  if (!show.ticketUrl) return null;
  return (
    <a
      href={show.ticketUrl}
      target="_blank"
      rel="noopener noreferrer"
      className={className ?? buttonClass('primary', 'md')}
    >
      <Ticket aria-hidden="true" className="h-4 w-4" />
      Get Tickets<span className="sr-only"> for {show.title} (opens in a new tab)</span>
    </a>
  );
}

/** "Add to calendar": the show as an .ics download (app/routes/shows_.$id[.]ics.ts). */
function CalendarLink({ show, className }: { show: ShowJSON; className?: string }) {
  return (
    <a href={`/shows/${show.id}.ics`} download className={className}>
      <CalendarPlus aria-hidden="true" className="h-4 w-4" />
      Add to calendar<span className="sr-only">: {show.title}</span>
    </a>
  );
}

function NextShow({ show }: { show: ShowJSON }) {
  return (
    <article
      id={`show-${show.id}`}
      data-testid="next-show"
      className="overflow-hidden rounded-lg border border-primary/40 bg-gradient-to-br from-primary/15 via-card to-card p-6 md:p-10"
    >
      <p className="text-sm font-semibold uppercase tracking-widest text-primary">Next show</p>
      <h3 className="mt-2 text-3xl font-bold md:text-4xl">{show.title}</h3>
      <ul className="mt-6 grid gap-3 text-lg sm:grid-cols-2">
        <li className="flex items-center gap-3">
          <CalendarDays aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
          <time dateTime={show.date}>{formatSiteDate(show.date, DATE_FULL)}</time>
        </li>
        <li className="flex items-center gap-3">
          <Clock aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
          Doors open at {show.time}
        </li>
        <li className="flex items-center gap-3">
          <MapPin aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
          <span>
            <span className="font-semibold">{show.venue}</span>
            <span className="text-muted-foreground"> · {show.location}</span>
          </span>
        </li>
      </ul>
      {show.description ? (
        <p className="mt-6 max-w-3xl text-muted-foreground">{show.description}</p>
      ) : null}
      <div className="mt-8 flex flex-wrap items-center gap-4">
        {show.ticketUrl ? (
          <TicketLink show={show} className={buttonClass('primary', 'lg')} />
        ) : (
          <p className="font-medium text-muted-foreground">Ticket information coming soon</p>
        )}
        <CalendarLink show={show} className={buttonClass('outline', 'lg')} />
      </div>
    </article>
  );
}

function ShowRow({ show, past = false }: { show: ShowJSON; past?: boolean }) {
  return (
    <li
      id={`show-${show.id}`}
      data-testid={past ? 'past-show' : 'upcoming-show'}
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div>
        {/* Foreground, not primary: small text on the card must keep AA contrast for any theme. */}
        <p className="text-sm font-semibold text-foreground">
          <time dateTime={show.date}>{formatSiteDate(show.date, DATE_SHORT)}</time>
          {past ? null : <span className="text-muted-foreground"> · {show.time}</span>}
        </p>
        <h3 className="mt-1 text-lg font-bold">{show.title}</h3>
        <p className="text-muted-foreground">
          {show.venue} · {show.location}
        </p>
      </div>
      {past ? null : (
        <div className="flex flex-wrap items-center gap-3">
          {show.ticketUrl ? (
            <TicketLink show={show} className={buttonClass('outline', 'sm')} />
          ) : (
            <p className="text-sm font-medium text-muted-foreground">Tickets TBA</p>
          )}
          <CalendarLink show={show} className={buttonClass('ghost', 'sm')} />
        </div>
      )}
    </li>
  );
}

export default function ShowsPage() {
  const data = useLoaderData<typeof loader>();
  const [next, ...more] = data.upcoming;
  return (
    <>
      <PageHeader
        title="Upcoming Shows"
        intro="Catch the collective live, from boardwalk clubs to warehouse nights."
      />
      <div className="container space-y-16 py-12">
        <p className="text-sm text-muted-foreground">
          <a href="/shows.ics" className="font-medium text-foreground underline underline-offset-4">
            Subscribe to the shows calendar
          </a>{' '}
          (iCalendar: Google Calendar, Apple Calendar, Outlook).
        </p>
        {!data.ok ? (
          <EmptyState role="alert" title="Something went wrong" text={SHOWS_ERROR_TEXT} />
        ) : !next ? (
          <EmptyState
            title="No Upcoming Shows"
            text="We're currently working on new tour dates. Check back soon for upcoming show announcements."
          />
        ) : (
          <section aria-labelledby="next-show-title">
            <h2 id="next-show-title" className="sr-only">
              Next show
            </h2>
            <NextShow show={next} />
          </section>
        )}

        {more.length > 0 ? (
          <section aria-labelledby="more-shows-title">
            <h2 id="more-shows-title" className="mb-6 text-2xl font-bold md:text-3xl">
              More Upcoming Shows
            </h2>
            <ul className="space-y-4">
              {more.map((show) => (
                <ShowRow key={show.id} show={show} />
              ))}
            </ul>
          </section>
        ) : null}

        {data.past.length > 0 ? (
          <section aria-labelledby="past-shows-title">
            <h2 id="past-shows-title" className="mb-6 text-2xl font-bold md:text-3xl">
              Past Shows
            </h2>
            <ul className="space-y-4 opacity-90">
              {data.past.map((show) => (
                <ShowRow key={show.id} show={show} past />
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
