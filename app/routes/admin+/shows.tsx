import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, Outlet, useLoaderData } from '@remix-run/react';

import { AdminPage } from '~/components/admin/admin-page';
import { AddNewLink, EditDeleteLinks } from '~/components/admin/edit-delete-links';
import { CalendarDays, ExternalLink, MapPin, Users } from '~/components/admin/icons';
import { AdminPagination } from '~/components/admin/list-paging';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { buttonClass } from '~/components/ui/button';
import { ADMIN_SHOWS_PER_PAGE, pageShows } from '~/models/show.server';
import { loadOr503 } from '~/platform/http-errors.server';
import { loadAdminList } from '~/services/admin-list.server';
import { keepSearch, showsListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';
import { formatShowDate } from '~/utils/time';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Shows');

export async function loader({ request }: LoaderFunctionArgs) {
  return loadOr503(request, async () => {
    const { items, ...paging } = await loadAdminList(
      request,
      pageShows,
      ADMIN_SHOWS_PER_PAGE,
      showsListUrl,
    );
    return { shows: items, ...paging };
  });
}

export default function AdminShows() {
  const { shows, page, pageCount, listUrl } = useLoaderData<typeof loader>();
  const search = keepSearch(listUrl);
  return (
    <AdminPage
      headingId="shows-heading"
      title="Shows"
      actions={<AddNewLink to={`new${search}`}>Add New Show</AddNewLink>}
    >
      <Outlet />

      {shows.length === 0 ? (
        <p className="rounded-lg border border-border bg-card p-8 text-center text-muted-foreground">
          No shows available. Create a new show to get started.
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shows.map((show) => (
            <li
              key={show.id}
              className="flex flex-col rounded-lg border border-border bg-card p-5"
              data-testid="admin-show-card"
            >
              <h2 className="text-lg font-semibold">{show.title}</h2>
              <p className="mt-2 flex items-center gap-2 text-sm">
                <CalendarDays aria-hidden="true" className="h-4 w-4 shrink-0 text-primary" />
                <span>
                  <time dateTime={show.date}>{formatShowDate(show.date)}</time> at {show.time}
                </span>
              </p>
              <p className="mt-1 flex items-center gap-2 text-sm">
                <MapPin aria-hidden="true" className="h-4 w-4 shrink-0 text-primary" />
                <span>
                  {show.venue}, {show.location}
                </span>
              </p>
              {show.guestListCapacity > 0 || show.guestListCount > 0 ? (
                <p className="mt-1 flex items-center gap-2 text-sm">
                  <Users aria-hidden="true" className="h-4 w-4 shrink-0 text-primary" />
                  <Link
                    to={`${show.id}/guest-list`}
                    className="underline underline-offset-4 hover:text-primary"
                    data-testid="guest-list-count"
                  >
                    {show.guestListCount} / {show.guestListCapacity} on the guest list
                  </Link>
                </p>
              ) : null}
              {show.description ? (
                <p className="mt-3 line-clamp-3 text-sm text-muted-foreground">
                  {show.description}
                </p>
              ) : null}
              <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-4">
                {show.ticketUrl ? (
                  <a
                    href={show.ticketUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    className={buttonClass('outline', 'sm')}
                  >
                    Get Tickets
                    <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                ) : (
                  <span className="text-xs text-muted-foreground">Tickets TBA</span>
                )}
                <div className="ml-auto flex gap-1">
                  <EditDeleteLinks
                    to={`/admin/shows/${show.id}`}
                    name={show.title}
                    search={search}
                    variant="ghost"
                  />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <AdminPagination path="/admin/shows" page={page} pageCount={pageCount} />
    </AdminPage>
  );
}

/** A list that cannot be loaded: 'Error loading shows: {message}' (SPEC), in place. */
export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      placement="panel"
      statusHandlers={{
        503: ({ error }) => ({
          title: 'Something went wrong',
          text: `Error loading shows: ${typeof error.data === 'string' ? error.data : error.statusText}`,
        }),
      }}
      back={{ to: '/admin', label: 'Back to the dashboard' }}
    />
  );
}
