import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { getViewer } from '~/auth/auth.server';
import { BlogCard } from '~/components/site/blog-card';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { Pagination } from '~/components/site/pagination';
import { EmptyState, PageHeader } from '~/components/site/section-heading';
import { imageInfos } from '~/files/image-derivatives.server';
import { findBlogPostCardPage } from '~/models/blog-post.server';
import { BLOG_CATEGORIES, type BlogCategory } from '~/types/entities';
import { cn } from '~/utils/cn';
import { pageParam } from '~/utils/page-href';
import { blogPostingLd, seoMeta, seoSite } from '~/utils/seo/seo';

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = seoSite(matches);
  return seoMeta({
    ...site,
    title: 'Blog',
    description: `News, events and reviews from the ${site.siteName} collective.`,
    url: location.pathname,
    image: data?.posts[0]?.imageUrl,
    jsonLd: (data?.posts ?? []).map((p) => blogPostingLd(p, site)),
    paging: data
      ? { params: { category: data.category }, page: data.page, pageCount: data.pageCount }
      : undefined,
  });
};

const FILTERS = ['ALL', ...BLOG_CATEGORIES] as const;

const EMPTY_TEXT: Record<BlogCategory | 'ALL', string> = {
  ALL: 'There are no blog posts yet. Check back soon for news, events and reviews.',
  NEWS: 'There are no news posts yet. Check back soon for the latest from the collective.',
  EVENTS: 'There are no event posts yet. See the Shows page for upcoming dates.',
  REVIEWS: 'There are no reviews yet. Check back soon for our take on records and shows.',
};

function parseCategory(value: string | null): BlogCategory | null {
  const upper = value?.toUpperCase();
  return (BLOG_CATEGORIES as readonly string[]).includes(upper ?? '')
    ? (upper as BlogCategory)
    : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const category = parseCategory(search.get('category'));
  // One page of cards (issue 37): the category filter runs in the query, no post bodies.
  const found = await findBlogPostCardPage(await getViewer(request), {
    category,
    page: pageParam(search),
  });
  const posts = found.items;
  return {
    category,
    posts,
    page: found.page,
    pageCount: found.pageCount,
    infos: await imageInfos(posts.map((p) => p.imageUrl)),
  };
}

/**
 * The images' widths (`sizes`): the featured card spans the container and its image is the left
 * half from `md` (624px in the 1248px of the `.container` from 1280px); the other cards are in the
 * grid below (1, 2 from `md`, 3 from `lg`: 400px).
 */
const FEATURED_SIZES = '(min-width: 1280px) 624px, (min-width: 768px) 50vw, 100vw';
const POST_SIZES =
  '(min-width: 1280px) 400px, (min-width: 1024px) 33vw, (min-width: 768px) 50vw, 100vw';

export default function BlogPage() {
  const { category, posts, infos, page, pageCount } = useLoaderData<typeof loader>();
  const active = category ?? 'ALL';
  const [featured, ...rest] = posts;
  return (
    <>
      <PageHeader title="Blog" intro="News, events and reviews from the collective." />
      <div className="container py-12">
        <nav aria-label="Blog categories" className="mb-10">
          <ul className="flex flex-wrap gap-2">
            {FILTERS.map((filter) => (
              <li key={filter}>
                <Link
                  to={filter === 'ALL' ? '/blog' : `/blog?category=${filter}`}
                  preventScrollReset
                  aria-current={active === filter ? 'page' : undefined}
                  className={cn(
                    'inline-flex min-h-9 items-center rounded-full border px-4 text-sm font-semibold tracking-wider transition-colors',
                    active === filter
                      ? 'border-primary bg-primary text-primary-foreground'
                      : 'border-border hover:border-primary hover:text-primary',
                  )}
                >
                  {filter}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {!featured ? (
          <EmptyState title="No blog posts found" text={EMPTY_TEXT[active]} />
        ) : (
          <>
            <h2 className="sr-only">Featured post</h2>
            {/* The page's largest contentful paint. */}
            <BlogCard
              post={featured}
              featured
              headingLevel={3}
              image={infos[featured.imageUrl]}
              sizes={FEATURED_SIZES}
              priority
            />
            {rest.length > 0 ? (
              <>
                <h2 className="sr-only">More posts</h2>
                <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
                  {rest.map((post) => (
                    <li
                      key={post.id}
                      className="render-when-visible flex [--placeholder-height:480px]"
                    >
                      <BlogCard post={post} image={infos[post.imageUrl]} sizes={POST_SIZES} />
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </>
        )}
        <Pagination path="/blog" params={{ category }} page={page} pageCount={pageCount} />
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
