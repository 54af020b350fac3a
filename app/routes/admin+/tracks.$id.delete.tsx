import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { getTrack } from '~/models/track.server';
import { deleteAction, deleteLoader, type DeleteRoute } from '~/services/admin-delete.server';
import { removeTrack } from '~/services/track-save.server';
import type { TrackJSON } from '~/types/entities';
import { tracksListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Delete Track');

const route = {
  notFound: 'Track not found',
  failureTitle: 'Failed to delete track',
  successTitle: 'Track deleted',
  successDescription: (track) => `"${track.title}" was deleted.`,
  get: getTrack,
  remove: removeTrack,
  listUrl: (request) => tracksListUrl(request.url),
} satisfies DeleteRoute<TrackJSON>;

export function loader(args: LoaderFunctionArgs) {
  return deleteLoader(args, route);
}
export function action(args: ActionFunctionArgs) {
  return deleteAction(args, route);
}

export default function DeleteTrack() {
  const { item: track, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Delete track?"
      closeTo={closeTo}
      description={`Are you sure? This will permanently delete the track "${track.title}". This action cannot be undone.`}
    />
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="tracks" />;
}
