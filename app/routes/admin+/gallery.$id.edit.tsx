import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';

import { GalleryForm } from '~/components/admin/gallery-form';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { useToastOnce } from '~/components/site/toaster';
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
  const actionData = useActionData<typeof action>();
  useToastOnce(actionData?.toast);
  return (
    <RouteDialog title="Edit Image" description={`Editing "${image.title}"`} closeTo={closeTo}>
      <GalleryForm
        key={image.id}
        image={image}
        lastResult={actionData?.result}
        alertTitle={actionData?.alertTitle}
        closeTo={closeTo}
      />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      placement="panel"
      back={{ to: '/admin/gallery', label: 'Back to gallery' }}
    />
  );
}
