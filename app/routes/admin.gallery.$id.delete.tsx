import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { AdminRouteError } from '~/components/admin/route-error';
import { deleteGalleryImage, getGalleryImage } from '~/models/gallery-image.server';
import { parseId } from '~/models/model-helpers.server';
import { galleryListUrl } from '~/utils/admin-urls';
import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { errorMessage } from '~/utils/error-message';

export const meta: MetaFunction = () => [{ title: 'Delete Image | Admin | Night Shore' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const image = id === null ? null : await getGalleryImage(id);
  if (!image) throw new Response('Image not found', { status: 404 });
  return { image };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const to = galleryListUrl();
  const fail = (description: string) =>
    redirectWithToast(to, { type: 'error', title: 'Failed to delete image', description });
  const id = parseId(params.id);
  if (id === null) return fail('Image not found');
  try {
    const removed = await deleteGalleryImage(id);
    if (!removed) return fail('Image not found');
    return redirectWithToast(to, {
      type: 'success',
      title: 'Image deleted',
      description: `"${removed.title}" was removed from the gallery.`,
    });
  } catch (error) {
    return fail(errorMessage(error));
  }
}

export default function DeleteGalleryImage() {
  const { image } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Delete image?"
      closeTo={galleryListUrl()}
      description={`Are you sure? This will permanently delete the image "${image.title}". This action cannot be undone.`}
    >
      <img src={image.imageUrl} alt="" className="max-h-40 rounded-md object-contain" />
    </ConfirmDeleteDialog>
  );
}

export function ErrorBoundary() {
  return <AdminRouteError backTo="/admin/gallery" backLabel="Back to gallery" />;
}
