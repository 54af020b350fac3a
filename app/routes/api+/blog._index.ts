import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { handleApi, methodNotAllowed } from '~/api/api.server';
import { apiListResponse } from '~/api/api-lists.server';
import { getViewer } from '~/auth/auth.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { blogPostList, blogPostViewOf } from '~/models/blog-post.server';

/**
 * GET /api/blog[?category=NEWS][&limit=&cursor=] — posts newest first, streamed, or a page of
 * them with `Link: <…>; rel="next"` (docs/api.md). The category is matched exactly after
 * upper-casing; empty or ALL means every post. Members-only posts asked for without a
 * logged-in session come with `"locked": true` and no `content`.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const raw = new URL(request.url).searchParams.get('category')?.trim().toUpperCase() ?? '';
    const category = raw === '' || raw === 'ALL' ? undefined : raw.slice(0, 50);
    const viewer = await getViewer(request);
    return apiListResponse(request, blogPostList(category), (doc) => blogPostViewOf(viewer, doc), {
      headers: publicCacheHeaders(request),
    });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
