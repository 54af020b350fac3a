import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { parseId } from '~/models/model-helpers.server';
import { deleteShow, getShow } from '~/models/show.server';
import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { AdminRouteError } from '~/components/admin/route-error';
import { requireAdmin } from '~/auth/auth.server';
import { formatShowDate } from '~/utils/time/admin-dates';
import { redirectWithToast } from '~/auth/toast.server';
import { errorMessage } from '~/utils/error-message';

export const meta: MetaFunction = () => [{ title: 'Delete show | Admin | Night Shore' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const show = id === null ? null : await getShow(id);
  if (!show) throw new Response('Show not found', { status: 404 });
  return { show };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const fail = (description: string) =>
    redirectWithToast('/admin/shows', {
      type: 'error',
      title: 'Failed to delete show',
      description,
    });
  if (id === null) return fail('Show not found');
  try {
    const deleted = await deleteShow(id);
    if (!deleted) return fail('Show not found');
    return redirectWithToast('/admin/shows', {
      type: 'success',
      title: 'Show deleted',
      description: `${deleted.title} was deleted.`,
    });
  } catch (error) {
    return fail(errorMessage(error));
  }
}

export default function DeleteShow() {
  const { show } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Confirm Deletion"
      closeTo="/admin/shows"
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
  return <AdminRouteError backTo="/admin/shows" backLabel="Back to shows" />;
}
