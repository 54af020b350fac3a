import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiError, apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { getViewer } from '~/auth/auth.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { getBlogPostBySlugFor } from '~/models/blog-post.server';

/**
 * GET /api/blog/{slug} — one post, 404 when there is none with that slug. Locked (no
 * `content`) when it is members-only and the caller has no session.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    const post = await getBlogPostBySlugFor(await getViewer(request), params.slug ?? '');
    return post
      ? apiJson(post, { headers: publicCacheHeaders(request) })
      : apiError(404, 'Blog post not found');
  });
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
