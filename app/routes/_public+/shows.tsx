import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';

import { getUser, requireUser } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { CalendarDays, CalendarPlus, Clock, MapPin, Ticket, Users } from '~/components/site/icons';
import { EmptyState, PageHeader } from '~/components/site/section-heading';
import { ShowList } from '~/components/site/show-list';
import { buttonClass } from '~/components/ui/button';
import { NewTabLink } from '~/components/ui/new-tab-link';
import { cancelGuestListSpot, guestListShowIdsOfUser } from '~/models/guest-list.server';
import { parseId } from '~/models/model-helpers.server';
import { findShowPage, getShow } from '~/models/show.server';
import { badRequest, loadOr503 } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { joinGuestList } from '~/services/shows.server';
import type { ShowJSON } from '~/types/entities';
import { unlockHref } from '~/utils/access';
import { pageParam } from '~/utils/page-href';
import { musicEventLd, seoMeta, seoSite } from '~/utils/seo/seo';
import { DATE_FULL, DATE_LONG, DATE_SHORT, formatSiteDate, siteToday } from '~/utils/time';

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = seoSite(matches);
  const shows = data ? [...data.upcoming, ...data.past] : [];
  return seoMeta({
    ...site,
    title: 'Shows',
    description: `Upcoming and past ${site.siteName} shows, with venues, dates and tickets.`,
    url: location.pathname,
    jsonLd: shows.map((s) => musicEventLd(s, site)),
    // The archive's pages; the upcoming list has more than one page only past 50 shows.
    paging: data
      ? {
          params: { upcoming: data.upcomingPage > 1 ? data.upcomingPage : null },
          page: data.pastPage,
          pageCount: data.pastPageCount,
          pageName: 'past',
        }
      : undefined,
  });
};

const SHOWS_ERROR_TEXT = 'Unable to load upcoming shows. Please try again later.';

export async function loader({ request }: LoaderFunctionArgs) {
  return loadOr503(request, async () => {
    const search = new URL(request.url).searchParams;
    const user = await getUser(request);
    const today = siteToday();
    // Upcoming shows in full while they are few (a page of 50, then more pages); past shows as
    // an archive, a page at a time, most recent first (issue 37).
    const [upcoming, past, onList] = await Promise.all([
      findShowPage({ when: 'upcoming', page: pageParam(search, 'upcoming'), today }),
      findShowPage({ when: 'past', page: pageParam(search, 'past'), today }),
      user ? guestListShowIdsOfUser(user.id) : Promise.resolve([]),
    ]);
    return {
      upcoming: upcoming.items,
      upcomingPage: upcoming.page,
      upcomingPageCount: upcoming.pageCount,
      past: past.items,
      pastPage: past.page,
      pastPageCount: past.pageCount,
      member: user !== null,
      onList,
    };
  });
}

const GUEST_LIST_REQUEST = 'guest-list-request';
const GUEST_LIST_CANCEL = 'guest-list-cancel';
const ON_GUEST_LIST = "You're on the guest list";

/**
 * The members' guest list (decision 018): ask for a spot or give it back. A plain form post
 * (no JS needed); a visitor without a session is sent to log in first. The answer is a
 * redirect back to the show with a flash message.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const intent = formData.get('intent');
  const showId = parseId(String(formData.get('showId') ?? ''));
  if ((intent !== GUEST_LIST_REQUEST && intent !== GUEST_LIST_CANCEL) || showId === null) {
    throw badRequest();
  }
  const show = await getShow(showId);
  if (!show) throw badRequest('Show not found');
  const back = `/shows#show-${show.id}`;
  const when = `${show.title}, ${formatSiteDate(show.date, DATE_LONG)} at ${show.venue}`;

  if (intent === GUEST_LIST_CANCEL) {
    const cancelled = await cancelGuestListSpot(show.id, user.id);
    return redirectWithToast(back, {
      type: cancelled ? 'success' : 'info',
      title: cancelled ? 'Spot cancelled' : 'Not on the guest list',
      description: cancelled
        ? `You are no longer on the guest list of ${when}.`
        : `You had no spot on the guest list of ${when}.`,
    });
  }
  const result = await joinGuestList(show, user, when);
  const toasts = {
    added: {
      type: 'success',
      title: ON_GUEST_LIST,
      description: `${when}. Give your username at the door.`,
    },
    already: {
      type: 'info',
      title: ON_GUEST_LIST,
      description: `You already have a spot for ${when}.`,
    },
    full: {
      type: 'error',
      title: 'Guest list full',
      description: `Every spot for ${when} is taken.`,
    },
    closed: {
      type: 'error',
      title: 'Guest list closed',
      description: `${when} has no open guest list.`,
    },
  } as const;
  return redirectWithToast(back, toasts[result]);
}

function TicketLink({ show, className }: { show: ShowJSON; className?: string }) {
  if (!show.ticketUrl) return null;
  return (
    <NewTabLink href={show.ticketUrl} className={className ?? buttonClass('primary', 'md')}>
      <Ticket aria-hidden="true" className="h-4 w-4" />
      Get Tickets<span className="sr-only"> for {show.title} (opens in a new tab)</span>
    </NewTabLink>
  );
}

/** "Add to calendar": the show as an .ics download (app/routes/_feeds+/shows_.$id[.]ics.ts). */
function CalendarLink({ show, className }: { show: ShowJSON; className?: string }) {
  return (
    <a href={`/shows/${show.id}.ics`} download className={className}>
      <CalendarPlus aria-hidden="true" className="h-4 w-4" />
      Add to calendar<span className="sr-only">: {show.title}</span>
    </a>
  );
}

type GuestListState = { member: boolean; onList: readonly number[] };

/**
 * The members' guest list of an upcoming show: spots left, and for a member a form button to
 * ask for a spot or give it back; a visitor is offered the way to log in.
 */
function GuestList({ show, member, onList }: { show: ShowJSON } & GuestListState) {
  const navigation = useNavigation();
  if (show.guestListCapacity <= 0) return null;
  const mine = onList.includes(show.id);
  const left = Math.max(0, show.guestListCapacity - show.guestListCount);
  const pending =
    navigation.state === 'submitting' && navigation.formData?.get('showId') === String(show.id);
  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-md border border-border bg-background/60 p-3 text-sm"
      data-testid="guest-list"
    >
      <Users aria-hidden="true" className="h-4 w-4 shrink-0 text-primary" />
      {mine ? (
        <p className="font-semibold text-foreground">{ON_GUEST_LIST}</p>
      ) : (
        <p className="text-foreground">
          Members&apos; guest list:{' '}
          {left > 0 ? `${left} of ${show.guestListCapacity} spots left` : 'Guest list full'}
        </p>
      )}
      {!member ? (
        left > 0 ? (
          <Link
            to={unlockHref('/shows')}
            className="font-semibold text-foreground underline underline-offset-4 hover:text-primary"
          >
            Log in to join the guest list<span className="sr-only"> of {show.title}</span>
          </Link>
        ) : null
      ) : mine || left > 0 ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="showId" value={show.id} />
          <button
            type="submit"
            name="intent"
            value={mine ? GUEST_LIST_CANCEL : GUEST_LIST_REQUEST}
            disabled={pending}
            className={buttonClass(mine ? 'outline' : 'primary', 'sm')}
          >
            {mine ? 'Cancel my spot' : 'Request a guest-list spot'}
            <span className="sr-only"> for {show.title}</span>
          </button>
        </Form>
      ) : null}
    </div>
  );
}

function NextShow({ show, ...guests }: { show: ShowJSON } & GuestListState) {
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
      <div className="mt-6">
        <GuestList show={show} {...guests} />
      </div>
    </article>
  );
}

function ShowRow({
  show,
  past = false,
  guests,
}: {
  show: ShowJSON;
  past?: boolean;
  guests?: GuestListState;
}) {
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
        {guests ? (
          <div className="mt-3">
            <GuestList show={show} {...guests} />
          </div>
        ) : null}
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
  // The next show is the first of the first page; later pages of upcoming shows list the rest.
  const first = data.upcomingPage === 1;
  const next = first ? data.upcoming[0] : undefined;
  const more = first ? data.upcoming.slice(1) : data.upcoming;
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
        {!first ? null : !next ? (
          <EmptyState
            title="No Upcoming Shows"
            text="We're currently working on new tour dates. Check back soon for upcoming show announcements."
          />
        ) : (
          <section aria-labelledby="next-show-title">
            <h2 id="next-show-title" className="sr-only">
              Next show
            </h2>
            <NextShow show={next} member={data.member} onList={data.onList} />
          </section>
        )}

        {more.length > 0 ? (
          <ShowList kind="upcoming" pages={data}>
            {more.map((show) => (
              <ShowRow
                key={show.id}
                show={show}
                guests={{ member: data.member, onList: data.onList }}
              />
            ))}
          </ShowList>
        ) : null}

        {data.past.length > 0 ? (
          <ShowList kind="past" pages={data}>
            {data.past.map((show) => (
              <ShowRow key={show.id} show={show} past />
            ))}
          </ShowList>
        ) : null}
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 503: () => ({ title: 'Something went wrong', text: SHOWS_ERROR_TEXT }) }}
    />
  );
}
