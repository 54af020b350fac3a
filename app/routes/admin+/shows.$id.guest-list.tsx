import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { Download } from '~/components/admin/icons';
import { buttonClass } from '~/components/ui/button';
import { RouteDialog } from '~/components/ui/route-dialog';
import { listGuestList } from '~/models/guest-list.server';
import { findByIdParam } from '~/models/model-helpers.server';
import { getShow } from '~/models/show.server';
import { notFound } from '~/platform/http-errors.server';
import { adminTitle } from '~/utils/seo/seo';
import { formatMessageDate, formatShowDate } from '~/utils/time';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Guest list');

/** /admin/shows/{id}/guest-list: who asked for a spot, and when; the CSV next to it. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const show = await findByIdParam(params.id, getShow);
  if (!show) throw notFound('Show not found');
  return { show, spots: await listGuestList(show.id) };
}

export default function ShowGuestList() {
  const { show, spots } = useLoaderData<typeof loader>();
  return (
    <RouteDialog
      title={`Guest list: ${show.title}`}
      description={`${formatShowDate(show.date)} · ${show.venue}. ${show.guestListCount} of ${show.guestListCapacity} spots taken.`}
      closeTo="/admin/shows"
      size="lg"
    >
      {spots.length === 0 ? (
        <p className="text-muted-foreground">No one is on the guest list yet.</p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="guest-list">
          <caption className="sr-only">Members on the guest list</caption>
          <thead>
            <tr className="border-b border-border">
              <th scope="col" className="py-2 pr-4 font-semibold">
                Member
              </th>
              <th scope="col" className="py-2 font-semibold">
                Requested
              </th>
            </tr>
          </thead>
          <tbody>
            {spots.map((spot) => (
              <tr key={spot.userId} className="border-b border-border/60">
                <td className="py-2 pr-4">{spot.username}</td>
                <td className="py-2 text-muted-foreground">
                  <time dateTime={spot.createdAt}>{formatMessageDate(spot.createdAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="mt-6 flex justify-end">
        <a
          href={`/admin/shows/${show.id}/guest-list.csv`}
          download
          className={buttonClass('outline', 'sm')}
        >
          <Download aria-hidden="true" className="h-4 w-4" />
          Download CSV
        </a>
      </div>
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="shows" />;
}
