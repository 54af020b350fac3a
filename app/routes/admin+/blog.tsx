import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, Outlet, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { CardCover, CardGrid } from '~/components/admin/card-grid';
import { AddNewLink, EditDeleteLinks } from '~/components/admin/edit-delete-links';
import { ExternalLink } from '~/components/admin/icons';
import { AdminPagination } from '~/components/admin/list-paging';
import { TabLinks } from '~/components/admin/tab-links';
import { CategoryBadge } from '~/components/site/blog-card';
import { MembersOnlyBadge } from '~/components/site/members-only';
import { buttonClass } from '~/components/ui/button';
import { pageBlogPosts } from '~/models/blog-post.server';
import { isMembersOnly } from '~/utils/access';
import { BLOG_TAB_CATEGORIES, blogListUrl, keepSearch } from '~/utils/admin-urls';
import { pageParam } from '~/utils/page-href';
import { adminTitle } from '~/utils/seo/seo';
import { DATE_SHORT, formatSiteDate } from '~/utils/time';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Blog');

type Category = (typeof BLOG_TAB_CATEGORIES)[number];

/** Cards per page of the grid. */
const POSTS_PER_PAGE = 24;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const search = new URL(request.url).searchParams;
  const raw = search.get('category');
  const category = BLOG_TAB_CATEGORIES.find((c) => c === raw) ?? null;
  // The category tabs filter on the server, over every post (issue 37).
  const list = await pageBlogPosts({ category, page: pageParam(search), perPage: POSTS_PER_PAGE });
  return {
    category,
    posts: list.items,
    page: list.page,
    pageCount: list.pageCount,
    listUrl: blogListUrl(request.url),
  };
}

const TABS: Array<{ label: string; category: Category | null }> = [
  { label: 'All Posts', category: null },
  { label: 'News', category: 'NEWS' },
  { label: 'Events', category: 'EVENTS' },
  { label: 'Reviews', category: 'REVIEWS' },
];

export default function AdminBlog() {
  const { category, posts, page, pageCount, listUrl } = useLoaderData<typeof loader>();
  const search = keepSearch(listUrl);
  return (
    <div>
      <header className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="font-heading text-3xl font-bold">Blog</h1>
          <p className="mt-1 text-sm text-muted-foreground">News, event reports and reviews.</p>
        </div>
        <AddNewLink to={`/admin/blog/new${search}`}>Create New Post</AddNewLink>
      </header>

      <Outlet />

      <TabLinks
        label="Post categories"
        tabs={TABS.map((t) => ({
          label: t.label,
          to: t.category ? `/admin/blog?category=${t.category}` : '/admin/blog',
          current: t.category === category,
        }))}
      />

      <CardGrid
        items={posts}
        empty="No posts found"
        testId="admin-blog-card"
        columns="md:grid-cols-2 xl:grid-cols-3"
        column
      >
        {(post) => (
          <>
            <CardCover src={post.imageUrl} alt="" className="relative aspect-video bg-muted">
              <CategoryBadge category={post.category} className="absolute left-2 top-2" />
            </CardCover>
            <div className="flex flex-1 flex-col p-4">
              <h2 className="font-semibold">{post.title}</h2>
              <p className="mt-1 text-xs text-muted-foreground">
                <time dateTime={post.createdAt}>{formatSiteDate(post.createdAt, DATE_SHORT)}</time>{' '}
                · <span className="font-mono">/{post.slug}</span>
              </p>
              {isMembersOnly(post) ? <MembersOnlyBadge item={post} className="mt-2" /> : null}
              <p className="mt-2 line-clamp-3 flex-1 text-sm text-muted-foreground">
                {post.excerpt}
              </p>
              <div className="mt-4 flex flex-wrap gap-2">
                <Link to={`/blog/${post.slug}`} className={buttonClass('outline', 'sm')}>
                  <ExternalLink aria-hidden="true" className="h-4 w-4" />
                  View<span className="sr-only"> {post.title}</span>
                </Link>
                <EditDeleteLinks to={`/admin/blog/${post.id}`} name={post.title} search={search} />
              </div>
            </div>
          </>
        )}
      </CardGrid>
      <AdminPagination path="/admin/blog" params={{ category }} page={page} pageCount={pageCount} />
    </div>
  );
}
