import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { GalleryForm } from '~/components/admin/gallery-form';
import { useUploadFormProps } from '~/components/admin/upload-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { galleryFormAction } from '~/services/gallery-save.server';
import { galleryListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Add New Image');

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { closeTo: galleryListUrl(request.url) };
}

export function action(args: ActionFunctionArgs) {
  return galleryFormAction(args, galleryListUrl);
}

export default function NewGalleryImage() {
  const { closeTo } = useLoaderData<typeof loader>();
  const props = useUploadFormProps(closeTo);
  return (
    <RouteDialog title="Add New Image" closeTo={closeTo}>
      <GalleryForm {...props} />
    </RouteDialog>
  );
}
