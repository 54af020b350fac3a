import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { getViewer } from '~/auth/auth.server';
import { CategoryBadge } from '~/components/site/blog-card';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { ArrowLeft, ArrowRight } from '~/components/site/icons';
import { MembersOnlyBadge } from '~/components/site/members-only';
import { NewsletterForm } from '~/components/site/newsletter-form';
import { buttonClass } from '~/components/ui/button';
import { ResponsiveImage } from '~/components/ui/responsive-image';
import { imageInfo } from '~/files/image-derivatives.server';
import { getBlogPostBySlug, getBlogPostWithNeighbours } from '~/models/blog-post.server';
import { badRequest, loadOr503, notFound } from '~/platform/http-errors.server';
import { retryAfterFromAction } from '~/platform/rate-limit.server';
import { readForm } from '~/platform/request-body.server';
import { SUBSCRIBE_INTENT, subscribeAction } from '~/services/public-forms.server';
import { MEMBERS_ONLY_POST, unlockHref } from '~/utils/access';
import { blogPostingLd, seoMeta, seoSite } from '~/utils/seo/seo';
import { DATE_LONG, formatSiteDate } from '~/utils/time';

const POST_NOT_FOUND_TITLE = 'Blog Post Not Found';
const POST_NOT_FOUND_TEXT = "The blog post you're looking for doesn't exist or has been removed.";

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = seoSite(matches);
  if (!data) {
    return seoMeta({
      ...site,
      title: POST_NOT_FOUND_TITLE,
      description: POST_NOT_FOUND_TEXT,
      url: location.pathname,
      noindex: true,
    });
  }
  return seoMeta({
    ...site,
    title: data.post.title,
    description: data.post.excerpt,
    url: `/blog/${data.post.slug}`,
    image: data.post.imageUrl,
    imageAlt: data.post.title,
    type: 'article',
    // As the page and its BlogPosting say: the post's date, by the collective.
    published: data.post.createdAt,
    author: site.siteName,
    jsonLd: blogPostingLd(data.post, site),
  });
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadOr503(request, async () => {
    // A members-only post is shown to a visitor without an account as a teaser: no content.
    const found = await getBlogPostWithNeighbours(await getViewer(request), params.slug ?? '');
    if (!found) throw notFound();
    // Intrinsic size + responsive derivatives of the post image (null for images without them).
    return { ...found, image: await imageInfo(found.post.imageUrl) };
  });
}

/** A 429 of the action keeps its Retry-After on the page's answer. */
export const headers = retryAfterFromAction;

export async function action({ request, params }: ActionFunctionArgs) {
  const slug = params.slug ?? '';
  const post = await getBlogPostBySlug(slug);
  if (!post) throw notFound();
  const formData = await readForm(request);
  if (formData.get('intent') === SUBSCRIBE_INTENT) {
    return subscribeAction(formData, 'minimal', `/blog/${encodeURIComponent(post.slug)}`, request);
  }
  throw badRequest();
}

function BackLink() {
  return (
    <Link
      to="/blog"
      className="inline-flex min-h-9 items-center gap-2 text-sm font-semibold text-muted-foreground hover:text-primary"
    >
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      Back to Blog
    </Link>
  );
}

/** The previous or the next post (`rel`), its arrow on its own side. */
function NeighbourLink({
  post,
  rel,
}: {
  post: { slug: string; title: string };
  rel: 'prev' | 'next';
}) {
  const next = rel === 'next';
  return (
    <Link
      to={`/blog/${post.slug}`}
      rel={rel}
      className={
        next
          ? 'group rounded-lg border border-border p-4 text-right hover:border-primary'
          : 'group rounded-lg border border-border p-4 hover:border-primary'
      }
    >
      <span
        className={
          next
            ? 'flex items-center justify-end gap-1 text-sm text-muted-foreground'
            : 'flex items-center gap-1 text-sm text-muted-foreground'
        }
      >
        {next ? null : <ArrowLeft aria-hidden="true" className="h-4 w-4" />}
        {next ? 'Next post' : 'Previous post'}
        {next ? <ArrowRight aria-hidden="true" className="h-4 w-4" /> : null}
      </span>
      <span className="mt-1 block font-semibold group-hover:text-primary">{post.title}</span>
    </Link>
  );
}

export default function BlogPostPage() {
  const { post, previous, next, image } = useLoaderData<typeof loader>();
  return (
    <article className="container max-w-4xl pb-16 pt-24">
      <BackLink />
      <header className="mt-6">
        <div className="flex flex-wrap items-center gap-3 text-sm text-muted-foreground">
          <CategoryBadge category={post.category} />
          <time dateTime={post.createdAt}>{formatSiteDate(post.createdAt, DATE_LONG)}</time>
          {post.locked ? <MembersOnlyBadge item={post} /> : null}
        </div>
        <h1 className="mt-4 text-4xl font-bold leading-tight md:text-5xl">{post.title}</h1>
      </header>
      <ResponsiveImage
        src={post.imageUrl}
        alt=""
        width={image?.width ?? 1200}
        height={image?.height ?? 675}
        widths={image?.widths}
        webpWidths={image?.webpWidths}
        sizes="(min-width: 896px) 832px, calc(100vw - 2rem)"
        priority
        className="mt-8 aspect-video w-full rounded-lg bg-muted object-cover"
      />
      {post.locked ? (
        <LockedPost slug={post.slug} excerpt={post.excerpt} />
      ) : (
        <pre
          data-testid="post-content"
          className="mt-10 whitespace-pre-wrap break-words font-body text-lg leading-relaxed text-foreground"
        >
          {post.content}
        </pre>
      )}

      <nav
        aria-label="More posts"
        className="mt-12 grid gap-4 border-t border-border pt-8 sm:grid-cols-2"
      >
        {previous ? <NeighbourLink post={previous} rel="prev" /> : <span />}
        {next ? <NeighbourLink post={next} rel="next" /> : null}
      </nav>

      <section
        id="newsletter"
        aria-labelledby="post-newsletter-title"
        className="mt-12 scroll-mt-20 rounded-lg border border-border bg-card p-6"
      >
        <h2 id="post-newsletter-title" className="text-2xl font-bold">
          Stay in the loop
        </h2>
        <p className="mb-4 mt-1 text-muted-foreground">
          Get new releases, show dates and posts like this one in your inbox.
        </p>
        <NewsletterForm variant="minimal" />
      </section>
      <div className="mt-8">
        <BackLink />
      </div>
    </article>
  );
}

/** What a visitor without an account reads of a members-only post: the excerpt and a way in. */
function LockedPost({ slug, excerpt }: { slug: string; excerpt: string }) {
  const path = `/blog/${slug}`;
  return (
    <section aria-labelledby="members-only-title" className="mt-10">
      <p className="font-body text-lg leading-relaxed text-foreground">{excerpt}</p>
      <div className="mt-8 rounded-lg border border-border bg-card p-6">
        <h2 id="members-only-title" className="text-xl font-bold">
          {MEMBERS_ONLY_POST}
        </h2>
        <div className="mt-4 flex flex-wrap gap-3">
          <Link to={unlockHref(path)} className={buttonClass('primary', 'md')}>
            Log in
          </Link>
          <Link to={unlockHref(path, 'register')} className={buttonClass('outline', 'md')}>
            Register
          </Link>
        </div>
      </div>
    </section>
  );
}

/** 'Blog Post Not Found' when the post cannot be found or loaded (SPEC). */
const postNotFound = () => ({ title: POST_NOT_FOUND_TITLE, text: POST_NOT_FOUND_TEXT });

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: postNotFound, 503: postNotFound }}
      back={{
        to: '/blog',
        label: (
          <>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            Back to Blog
          </>
        ),
      }}
    />
  );
}
