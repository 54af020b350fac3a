import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { listGalleryImages } from '~/models/gallery-image.server';

/** GET /api/gallery — every gallery image, newest first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () =>
    apiJson(await listGalleryImages(), { headers: publicCacheHeaders(request) }),
  );

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['GET']));
