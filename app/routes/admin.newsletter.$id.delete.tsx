import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { parseId } from '~/models/model-helpers.server';
import { deleteSubscriber, getSubscriber } from '~/models/subscriber.server';
import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { AdminRouteError } from '~/components/admin/route-error';
import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { errorMessage } from '~/utils/error-message';

export const meta: MetaFunction = () => [{ title: 'Remove subscriber | Admin | Night Shore' }];

/** Back to the list, keeping the search the admin came from. */
function listUrl(request: Request) {
  const q = new URL(request.url).searchParams.get('q')?.trim();
  return q ? `/admin/newsletter?${new URLSearchParams({ q })}` : '/admin/newsletter';
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const subscriber = id === null ? null : await getSubscriber(id);
  if (!subscriber) throw new Response('Subscriber not found', { status: 404 });
  return { subscriber, closeTo: listUrl(request) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const to = listUrl(request);
  const id = parseId(params.id);
  const fail = (description: string) =>
    redirectWithToast(to, { type: 'error', title: 'Failed to remove subscriber', description });
  if (id === null) return fail('Subscriber not found');
  try {
    const removed = await deleteSubscriber(id);
    if (!removed) return fail('Subscriber not found');
    return redirectWithToast(to, {
      type: 'success',
      title: 'Subscriber removed',
      description: `${removed.email} was removed from the newsletter.`,
    });
  } catch (error) {
    return fail(errorMessage(error));
  }
}

export default function RemoveSubscriber() {
  const { subscriber, closeTo } = useLoaderData<typeof loader>();
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
  return <AdminRouteError backTo="/admin/newsletter" backLabel="Back to subscribers" />;
}
