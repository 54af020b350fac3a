import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { handleApi, methodNotAllowed } from '~/api/api.server';
import { apiListResponse } from '~/api/api-lists.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { galleryImageList, toGalleryImageJSON } from '~/models/gallery-image.server';

/**
 * GET /api/gallery[?limit=&cursor=] — every gallery image, newest first, streamed; or a page
 * with `Link: <…>; rel="next"` (docs/api.md).
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () =>
    apiListResponse(request, galleryImageList(), toGalleryImageJSON, {
      headers: publicCacheHeaders(request),
    }),
  );
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
