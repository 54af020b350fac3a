import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { BlogForm } from '~/components/admin/blog-form';
import { useUploadFormProps } from '~/components/admin/upload-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { blogFormAction } from '~/services/blog-save.server';
import { blogListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'New Blog Post');

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { closeTo: blogListUrl(request.url) };
}

export function action(args: ActionFunctionArgs) {
  return blogFormAction(args, blogListUrl);
}

export default function NewBlogPost() {
  const { closeTo } = useLoaderData<typeof loader>();
  const props = useUploadFormProps(closeTo);
  return (
    <RouteDialog title="Create New Post" closeTo={closeTo} size="lg">
      <BlogForm {...props} />
    </RouteDialog>
  );
}
