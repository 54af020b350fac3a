import { Link } from '@remix-run/react';

import { ArrowRight } from '~/components/site/icons';
import { ResponsiveImage } from '~/components/ui/responsive-image';
import type { BlogPostJSON } from '~/types/entities';
import type { ImageInfo } from '~/types/image-info';
import { unlockHref } from '~/utils/access';
import { cn } from '~/utils/cn';
import { DATE_LONG, formatSiteDate } from '~/utils/time';

import { MembersOnlyBadge } from './members-only';

/** Category badge colours: NEWS primary, EVENTS accent, REVIEWS and others secondary. */
export function CategoryBadge({ category, className }: { category: string; className?: string }) {
  const colour =
    category === 'NEWS'
      ? 'bg-primary text-primary-foreground'
      : category === 'EVENTS'
        ? 'bg-accent text-accent-foreground'
        : 'bg-secondary text-secondary-foreground';
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-bold uppercase tracking-wider',
        colour,
        className,
      )}
    >
      {category}
    </span>
  );
}

type CardPost = Pick<
  BlogPostJSON,
  | 'id'
  | 'title'
  | 'slug'
  | 'excerpt'
  | 'imageUrl'
  | 'category'
  | 'visibility'
  | 'publicAt'
  | 'createdAt'
> & { locked: boolean };

/**
 * Blog post card, normal or featured layout (blog list, home page). `image`: the post image's
 * `imageInfo` (a responsive `<picture>`; none → a plain 16:9 `<img>`); `sizes`: the image's
 * rendered width where the caller puts the card (a featured card's image is its left half from
 * `md` up). A locked post (members-only, seen without an account) shows the badge, and its
 * call to action leads to the login page, coming back to the post.
 */
export function BlogCard({
  post,
  featured = false,
  headingLevel = 3,
  image,
  sizes,
  priority,
}: {
  post: CardPost;
  featured?: boolean;
  headingLevel?: 2 | 3;
  image?: ImageInfo | null;
  sizes?: string;
  /** The page's main, above-the-fold image: eager, `fetchpriority="high"`. Otherwise lazy. */
  priority?: boolean;
}) {
  const Heading = `h${headingLevel}` as const;
  const href = `/blog/${post.slug}`;
  return (
    <article
      data-testid={featured ? 'blog-card-featured' : 'blog-card'}
      className={cn(
        'card group w-full transition-shadow hover:shadow-lg hover:shadow-primary/10',
        featured && 'md:flex-row',
      )}
    >
      <Link
        to={href}
        tabIndex={-1}
        aria-hidden="true"
        className={cn('block overflow-hidden bg-muted', featured ? 'md:w-1/2' : '')}
      >
        <ResponsiveImage
          src={post.imageUrl}
          alt=""
          width={800}
          height={450}
          {...image}
          sizes={sizes}
          priority={priority}
          className="aspect-video h-full w-full object-cover transition-transform duration-500 group-hover:scale-105"
        />
      </Link>
      <div className={cn('flex flex-1 flex-col gap-3 p-6', featured ? 'md:justify-center' : '')}>
        <div className="flex flex-wrap items-center gap-3 text-sm text-muted-foreground">
          <CategoryBadge category={post.category} />
          <time dateTime={post.createdAt}>{formatSiteDate(post.createdAt, DATE_LONG)}</time>
          {post.locked ? <MembersOnlyBadge item={post} /> : null}
        </div>
        <Heading
          className={cn('font-bold leading-tight', featured ? 'text-2xl md:text-3xl' : 'text-xl')}
        >
          <Link to={href} className="hover:text-primary">
            {post.title}
          </Link>
        </Heading>
        <p className="text-muted-foreground">{post.excerpt}</p>
        <Link
          to={post.locked ? unlockHref(href) : href}
          className="mt-auto inline-flex min-h-6 items-center gap-1 self-start font-semibold text-primary hover:underline"
        >
          {post.locked ? 'Log in to read' : 'Read More'}
          <ArrowRight aria-hidden="true" className="h-4 w-4" />
          <span className="sr-only">: {post.title}</span>
        </Link>
      </div>
    </article>
  );
}
