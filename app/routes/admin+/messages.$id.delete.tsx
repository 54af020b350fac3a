import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { deleteContactMessage, getContactMessage } from '~/models/contact-message.server';
import { deleteAction, deleteLoader, type DeleteRoute } from '~/services/admin-delete.server';
import type { ContactMessageJSON } from '~/types/entities';
import { messagesListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Delete message');

const route = {
  notFound: 'Message not found',
  failureTitle: 'Failed to delete message',
  successTitle: 'Message deleted',
  successDescription: (message) => `The message from ${message.name} was deleted.`,
  get: getContactMessage,
  remove: deleteContactMessage,
  listUrl: (request) => messagesListUrl(request.url),
} satisfies DeleteRoute<ContactMessageJSON>;

export function loader(args: LoaderFunctionArgs) {
  return deleteLoader(args, route);
}
export function action(args: ActionFunctionArgs) {
  return deleteAction(args, route);
}

export default function DeleteMessage() {
  const { item: message, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Delete message?"
      closeTo={closeTo}
      description={
        <>
          This will permanently delete the message &lsquo;{message.subject}&rsquo; from{' '}
          {message.name}. This action cannot be undone.
        </>
      }
    />
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="messages" />;
}
