import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { AdminRouteError } from '~/components/admin/route-error';
import { parseId } from '~/models/model-helpers.server';
import { deleteTrack, getTrack } from '~/models/track.server';
import { requireAdmin } from '~/auth/auth.server';
import { tracksListUrl } from '~/utils/admin-urls';
import { redirectWithToast } from '~/auth/toast.server';
import { errorMessage } from '~/utils/error-message';

export const meta: MetaFunction = () => [{ title: 'Delete Track | Admin | Night Shore' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const track = id === null ? null : await getTrack(id);
  if (!track) throw new Response('Track not found', { status: 404 });
  return { track, closeTo: tracksListUrl(request.url) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const to = tracksListUrl(request.url);
  const fail = (description: string) =>
    redirectWithToast(to, { type: 'error', title: 'Failed to delete track', description });
  const id = parseId(params.id);
  if (id === null) return fail('Track not found');
  try {
    const removed = await deleteTrack(id);
    if (!removed) return fail('Track not found');
    return redirectWithToast(to, {
      type: 'success',
      title: 'Track deleted',
      description: `"${removed.title}" was deleted.`,
    });
  } catch (error) {
    return fail(errorMessage(error));
  }
}

export default function DeleteTrack() {
  const { track, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Delete track?"
      closeTo={closeTo}
      description={`Are you sure? This will permanently delete the track "${track.title}". This action cannot be undone.`}
    />
  );
}

export function ErrorBoundary() {
  return <AdminRouteError backTo="/admin/tracks" backLabel="Back to tracks" />;
}
