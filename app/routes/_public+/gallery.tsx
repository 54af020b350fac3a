import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { ImageGrid } from '~/components/site/image-grid';
import { Pagination } from '~/components/site/pagination';
import { EmptyState, PageHeader } from '~/components/site/section-heading';
import { imageInfos } from '~/files/image-derivatives.server';
import { findGalleryImagePage } from '~/models/gallery-image.server';
import { pageParam } from '~/utils/page-href';
import { seoMeta, seoSite } from '~/utils/seo/seo';

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = seoSite(matches);
  return seoMeta({
    ...site,
    title: 'Gallery',
    description: `Photos from ${site.siteName} shows, studio nights and the Jersey Shore boardwalk.`,
    url: location.pathname,
    image: data?.images[0]?.imageUrl,
    paging: data ? { params: {}, page: data.page, pageCount: data.pageCount } : undefined,
  });
};

export async function loader({ request }: LoaderFunctionArgs) {
  // One page of images (issue 37), and the derivatives of those only.
  const found = await findGalleryImagePage({ page: pageParam(new URL(request.url).searchParams) });
  const images = found.items;
  return {
    images,
    page: found.page,
    pageCount: found.pageCount,
    infos: await imageInfos(images.map((i) => i.imageUrl)),
  };
}

export default function GalleryPage() {
  const { images, infos, page, pageCount } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader
        title="Gallery"
        intro="Stage lights, studio nights and the boardwalk after dark."
      />
      <div className="container py-12">
        {images.length === 0 ? (
          <EmptyState title="No images found" text="There are no images in the gallery yet." />
        ) : (
          // One column on a phone: only the first image is above the fold there.
          <ImageGrid images={images} columns={3} infos={infos} priorityCount={1} />
        )}
        <Pagination path="/gallery" params={{}} page={page} pageCount={pageCount} />
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
