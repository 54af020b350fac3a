import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { GalleryForm } from '~/components/admin/gallery-form';
import { useUploadFormProps } from '~/components/admin/upload-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { galleryEditLoader, galleryFormAction } from '~/services/gallery-save.server';
import { galleryListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Edit Image');

export function loader(args: LoaderFunctionArgs) {
  return galleryEditLoader(args, galleryListUrl);
}

export function action(args: ActionFunctionArgs) {
  return galleryFormAction(args, galleryListUrl);
}

export default function EditGalleryImage() {
  const { item: image, closeTo } = useLoaderData<typeof loader>();
  const props = useUploadFormProps(closeTo);
  return (
    <RouteDialog title="Edit Image" description={`Editing "${image.title}"`} closeTo={closeTo}>
      <GalleryForm key={image.id} image={image} {...props} />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="gallery" />;
}
