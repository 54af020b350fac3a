import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';

import { BlogForm } from '~/components/admin/blog-form';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { useToastOnce } from '~/components/site/toaster';
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
  const actionData = useActionData<typeof action>();
  useToastOnce(actionData?.toast);
  return (
    <RouteDialog
      title="Edit Post"
      description={`Editing "${post.title}"`}
      closeTo={closeTo}
      size="lg"
    >
      <BlogForm
        key={post.id}
        post={post}
        lastResult={actionData?.result}
        alertTitle={actionData?.alertTitle}
        closeTo={closeTo}
      />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary placement="panel" back={{ to: '/admin/blog', label: 'Back to posts' }} />
  );
}
