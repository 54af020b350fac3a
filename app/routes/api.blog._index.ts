import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { getViewer } from '~/auth/auth.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { listBlogPostsFor } from '~/models/blog-post.server';

/**
 * GET /api/blog[?category=NEWS] — posts newest first. The category is matched exactly
 * after upper-casing; empty or ALL means every post. Members-only posts asked for without a
 * logged-in session come with `"locked": true` and no `content`.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () => {
    const raw = new URL(request.url).searchParams.get('category')?.trim().toUpperCase() ?? '';
    const category = raw === '' || raw === 'ALL' ? undefined : raw.slice(0, 50);
    const posts = await listBlogPostsFor(await getViewer(request), { category });
    return apiJson(posts, { headers: publicCacheHeaders(request) });
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['GET']));
