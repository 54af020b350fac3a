import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { ConfirmDeleteDialog } from '~/components/admin/confirm-delete-dialog';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { getBlogPost } from '~/models/blog-post.server';
import { deleteAction, deleteLoader, type DeleteRoute } from '~/services/admin-delete.server';
import { removeBlogPost } from '~/services/blog-save.server';
import type { BlogPostJSON } from '~/types/entities';
import { blogListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Delete Blog Post');

const route = {
  notFound: 'Post not found',
  failureTitle: 'Failed to delete post',
  successTitle: 'Post deleted',
  successDescription: (post) => `"${post.title}" was deleted.`,
  get: getBlogPost,
  remove: removeBlogPost,
  listUrl: (request) => blogListUrl(request.url),
} satisfies DeleteRoute<BlogPostJSON>;

export function loader(args: LoaderFunctionArgs) {
  return deleteLoader(args, route);
}
export function action(args: ActionFunctionArgs) {
  return deleteAction(args, route);
}

export default function DeleteBlogPost() {
  const { item: post, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDeleteDialog
      title="Delete post?"
      closeTo={closeTo}
      description={`Are you sure? This will permanently delete the post "${post.title}". This action cannot be undone.`}
    />
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="blog" />;
}
