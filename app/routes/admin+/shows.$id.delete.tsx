import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { getShow } from '~/models/show.server';
import { deleteAction, deleteLoader, type DeleteRoute } from '~/services/admin-delete.server';
import { removeShow } from '~/services/shows.server';
import type { ShowJSON } from '~/types/entities';
import { showsListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';
import { formatShowDate } from '~/utils/time';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Delete show');

const route = {
  notFound: 'Show not found',
  failureTitle: 'Failed to delete show',
  successTitle: 'Show deleted',
  successDescription: (show) => `${show.title} was deleted.`,
  get: getShow,
  remove: removeShow,
  listUrl: (request) => showsListUrl(request.url),
} satisfies DeleteRoute<ShowJSON>;

export function loader(args: LoaderFunctionArgs) {
  return deleteLoader(args, route);
}
export function action(args: ActionFunctionArgs) {
  return deleteAction(args, route);
}

export default function DeleteShow() {
  const { item: show, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Confirm Deletion"
      closeTo={closeTo}
      description={
        <>
          Are you sure you want to delete &lsquo;{show.title}&rsquo; at {show.venue} on{' '}
          {formatShowDate(show.date)}? This action cannot be undone.
        </>
      }
    />
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="shows" />;
}
