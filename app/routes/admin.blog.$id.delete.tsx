import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { AdminRouteError } from '~/components/admin/route-error';
import { deleteBlogPost, getBlogPost } from '~/models/blog-post.server';
import { parseId } from '~/models/model-helpers.server';
import { blogListUrl } from '~/utils/admin-urls';
import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { errorMessage } from '~/utils/error-message';

export const meta: MetaFunction = () => [{ title: 'Delete Blog Post | Admin | Night Shore' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const post = id === null ? null : await getBlogPost(id);
  if (!post) throw new Response('Post not found', { status: 404 });
  return { post, closeTo: blogListUrl(request.url) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const to = blogListUrl(request.url);
  const fail = (description: string) =>
    redirectWithToast(to, { type: 'error', title: 'Failed to delete post', description });
  const id = parseId(params.id);
  if (id === null) return fail('Post not found');
  try {
    const removed = await deleteBlogPost(id);
    if (!removed) return fail('Post not found');
    return redirectWithToast(to, {
      type: 'success',
      title: 'Post deleted',
      description: `"${removed.title}" was deleted.`,
    });
  } catch (error) {
    return fail(errorMessage(error));
  }
}

export default function DeleteBlogPost() {
  const { post, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Delete post?"
      closeTo={closeTo}
      description={`Are you sure? This will permanently delete the post "${post.title}". This action cannot be undone.`}
    />
  );
}

export function ErrorBoundary() {
  return <AdminRouteError backTo="/admin/blog" backLabel="Back to posts" />;
}
