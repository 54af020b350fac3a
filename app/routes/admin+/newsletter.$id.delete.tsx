import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { deleteSubscriber, getSubscriber } from '~/models/subscriber.server';
import { deleteAction, deleteLoader, type DeleteRoute } from '~/services/admin-delete.server';
import type { SubscriberJSON } from '~/types/entities';
import { subscribersListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Remove subscriber');

const route = {
  notFound: 'Subscriber not found',
  failureTitle: 'Failed to remove subscriber',
  successTitle: 'Subscriber removed',
  successDescription: (subscriber) => `${subscriber.email} was removed from the newsletter.`,
  get: getSubscriber,
  remove: deleteSubscriber,
  listUrl: (request) => subscribersListUrl(request.url),
} satisfies DeleteRoute<SubscriberJSON>;

export function loader(args: LoaderFunctionArgs) {
  return deleteLoader(args, route);
}
export function action(args: ActionFunctionArgs) {
  return deleteAction(args, route);
}

export default function RemoveSubscriber() {
  const { item: subscriber, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Remove subscriber?"
      closeTo={closeTo}
      confirmLabel="Remove"
      pendingLabel="Removing..."
      description={
        <>
          This will permanently remove {subscriber.name} ({subscriber.email}) from the newsletter.
          This action cannot be undone.
        </>
      }
    />
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="newsletter" />;
}
