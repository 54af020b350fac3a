import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { BlogForm } from '~/components/admin/blog-form';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { useUploadFormProps } from '~/components/admin/upload-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { blogEditLoader, blogFormAction } from '~/services/blog-save.server';
import { blogListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Edit Blog Post');

export function loader(args: LoaderFunctionArgs) {
  return blogEditLoader(args, blogListUrl);
}

export function action(args: ActionFunctionArgs) {
  return blogFormAction(args, blogListUrl);
}

export default function EditBlogPost() {
  const { item: post, closeTo } = useLoaderData<typeof loader>();
  const props = useUploadFormProps(closeTo);
  return (
    <RouteDialog
      title="Edit Post"
      description={`Editing "${post.title}"`}
      closeTo={closeTo}
      size="lg"
    >
      <BlogForm key={post.id} post={post} {...props} />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="blog" />;
}
