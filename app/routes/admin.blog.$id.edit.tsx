import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { BlogForm } from '~/components/admin/blog-form';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { useToastOnce } from '~/components/site/toaster';
import { RouteDialog } from '~/components/ui/route-dialog';
import { getBlogPost } from '~/models/blog-post.server';
import { findByIdParam } from '~/models/model-helpers.server';
import { notFound } from '~/platform/http-errors.server';
import { blogFormAction } from '~/services/blog-save.server';
import { blogListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Edit Blog Post');

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const post = await findByIdParam(params.id, getBlogPost);
  if (!post) throw notFound('Post not found');
  return { post, closeTo: blogListUrl(request.url) };
}

export const action = (args: ActionFunctionArgs) => blogFormAction(args, blogListUrl);

export default function EditBlogPost() {
  const { post, closeTo } = useLoaderData<typeof loader>();
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
