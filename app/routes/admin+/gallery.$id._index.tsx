import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { buttonClass } from '~/components/ui/button';
import { RouteDialog } from '~/components/ui/route-dialog';
import { galleryEditLoader } from '~/services/gallery-save.server';
import { galleryListUrl, keepSearch } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';
import { DATE_LONG, formatSiteDate } from '~/utils/time';

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  adminTitle(matches, data?.image.title ?? 'Image');

export async function loader(args: LoaderFunctionArgs) {
  const { item: image, closeTo } = await galleryEditLoader(args, galleryListUrl);
  return { image, closeTo };
}

/** The large preview opened by a card's eye button. */
export default function GalleryImagePreview() {
  const { image, closeTo } = useLoaderData<typeof loader>();
  return (
    <RouteDialog
      title={image.title}
      description={`Added ${formatSiteDate(image.createdAt, DATE_LONG)}`}
      closeTo={closeTo}
      size="xl"
    >
      <img
        src={image.imageUrl}
        alt={image.description || image.title}
        className="mx-auto max-h-[70vh] w-auto rounded-md object-contain"
      />
      {image.description ? (
        <p className="mt-4 text-sm text-muted-foreground">{image.description}</p>
      ) : null}
      <div className="mt-4 flex justify-end gap-2">
        <Link
          to={`/admin/gallery/${image.id}/edit${keepSearch(closeTo)}`}
          className={buttonClass('outline', 'sm')}
        >
          Edit
        </Link>
        <Link to={closeTo} className={buttonClass('primary', 'sm')}>
          Close
        </Link>
      </div>
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="gallery" />;
}
