import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, Outlet, useLoaderData } from '@remix-run/react';

import { CardCover, CardGrid } from '~/components/admin/card-grid';
import { AddNewLink, EditDeleteLinks } from '~/components/admin/edit-delete-links';
import { Eye } from '~/components/admin/icons';
import { AdminPagination } from '~/components/admin/list-paging';
import { pageGalleryImages } from '~/models/gallery-image.server';
import { loadAdminList } from '~/services/admin-list.server';
import { galleryListUrl, keepSearch } from '~/utils/admin-urls';
import { cn } from '~/utils/cn';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Gallery');

/** Cards per page of the grid. */
const IMAGES_PER_PAGE = 24;

export async function loader({ request }: LoaderFunctionArgs) {
  const { items, ...paging } = await loadAdminList(
    request,
    pageGalleryImages,
    IMAGES_PER_PAGE,
    galleryListUrl,
  );
  return { images: items, ...paging };
}

const iconButton = (extra?: string) =>
  cn(
    'inline-flex h-10 w-10 items-center justify-center rounded-full bg-background/90 text-foreground shadow transition',
    'hover:bg-background focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
    extra,
  );

export default function AdminGallery() {
  const { images, page, pageCount, listUrl } = useLoaderData<typeof loader>();
  const search = keepSearch(listUrl);
  return (
    <div>
      <header className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="font-heading text-3xl font-bold">Gallery</h1>
          <p className="mt-1 text-sm text-muted-foreground">Photos shown on the gallery page.</p>
        </div>
        <AddNewLink to={`/admin/gallery/new${search}`}>Add New Image</AddNewLink>
      </header>

      <Outlet />

      <CardGrid
        items={images}
        empty="No images found"
        testId="admin-gallery-card"
        columns="sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
      >
        {(image) => (
          <>
            <CardCover
              src={image.imageUrl}
              alt={image.description || image.title}
              className="group relative aspect-[4/3] bg-muted"
            >
              {/* The eye button shows on hover, and whenever it has keyboard focus. */}
              <div className="absolute inset-0 flex items-center justify-center bg-black/40 opacity-0 transition-opacity focus-within:opacity-100 group-hover:opacity-100">
                <Link
                  to={`/admin/gallery/${image.id}${search}`}
                  preventScrollReset
                  className={iconButton()}
                  aria-label={`Preview ${image.title}`}
                >
                  <Eye aria-hidden="true" className="h-5 w-5" />
                </Link>
              </div>
            </CardCover>
            <div className="p-4">
              <h2 className="font-semibold">{image.title}</h2>
              {image.description ? (
                <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">
                  {image.description}
                </p>
              ) : null}
              <div className="mt-3 flex gap-2">
                <EditDeleteLinks to={`/admin/gallery/${image.id}${search}`} name={image.title} />
              </div>
            </div>
          </>
        )}
      </CardGrid>
      <AdminPagination path="/admin/gallery" page={page} pageCount={pageCount} />
    </div>
  );
}
