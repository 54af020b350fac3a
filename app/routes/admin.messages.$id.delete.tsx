import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { deleteContactMessage, getContactMessage } from '~/models/contact-message.server';
import { parseId } from '~/models/model-helpers.server';
import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { AdminRouteError } from '~/components/admin/route-error';
import { errorMessage } from '~/utils/error-message';

export const meta: MetaFunction = () => [{ title: 'Delete message | Admin | Night Shore' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const message = id === null ? null : await getContactMessage(id);
  if (!message) throw new Response('Message not found', { status: 404 });
  return { message };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const fail = (description: string) =>
    redirectWithToast('/admin/messages', {
      type: 'error',
      title: 'Failed to delete message',
      description,
    });
  if (id === null) return fail('Message not found');
  try {
    const deleted = await deleteContactMessage(id);
    if (!deleted) return fail('Message not found');
    return redirectWithToast('/admin/messages', {
      type: 'success',
      title: 'Message deleted',
      description: `The message from ${deleted.name} was deleted.`,
    });
  } catch (error) {
    return fail(errorMessage(error));
  }
}

export default function DeleteMessage() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Delete message?"
      closeTo="/admin/messages"
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
  return <AdminRouteError backTo="/admin/messages" backLabel="Back to messages" />;
}
