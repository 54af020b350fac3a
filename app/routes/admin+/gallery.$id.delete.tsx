import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { deleteGalleryImage, getGalleryImage } from '~/models/gallery-image.server';
import { deleteAction, deleteLoader, type DeleteRoute } from '~/services/admin-delete.server';
import type { GalleryImageJSON } from '~/types/entities';
import { galleryListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Delete Image');

const route = {
  notFound: 'Image not found',
  failureTitle: 'Failed to delete image',
  successTitle: 'Image deleted',
  successDescription: (image) => `"${image.title}" was removed from the gallery.`,
  get: getGalleryImage,
  remove: deleteGalleryImage,
  listUrl: (request) => galleryListUrl(request.url),
} satisfies DeleteRoute<GalleryImageJSON>;

export function loader(args: LoaderFunctionArgs) {
  return deleteLoader(args, route);
}
export function action(args: ActionFunctionArgs) {
  return deleteAction(args, route);
}

export default function DeleteGalleryImage() {
  const { item: image, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Delete image?"
      closeTo={closeTo}
      description={`Are you sure? This will permanently delete the image "${image.title}". This action cannot be undone.`}
    >
      <img src={image.imageUrl} alt="" className="max-h-40 rounded-md object-contain" />
    </ConfirmDeleteDialog>
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="gallery" />;
}
