import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useEffect } from 'react';

import { getViewer } from '~/auth/auth.server';
import { BlogCard } from '~/components/site/blog-card';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { Headphones, Mail } from '~/components/site/icons';
import { ImageGrid } from '~/components/site/image-grid';
import { NewsletterForm } from '~/components/site/newsletter-form';
import { HeadedSection, SectionHeading } from '~/components/site/section-heading';
import { buttonClass } from '~/components/ui/button';
import { ResponsiveImage } from '~/components/ui/responsive-image';
import { useRootData } from '~/document/use-root-data';
import { imageInfos } from '~/files/image-derivatives.server';
import { findBlogPostCardPage } from '~/models/blog-post.server';
import { listGalleryImages } from '~/models/gallery-image.server';
import { getFeaturedTrackFor, listTracksFor } from '~/models/track.server';
import { badRequest } from '~/platform/http-errors.server';
import { retryAfterFromAction } from '~/platform/rate-limit.server';
import { readForm } from '~/platform/request-body.server';
import { FeaturedPlayer } from '~/player/featured-player';
import { TrackGrid } from '~/player/track-card';
import { SUBSCRIBE_INTENT, subscribeAction } from '~/services/public-forms.server';
import { musicGroupLd, seoMeta, seoSite, socialLinks } from '~/utils/seo/seo';

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = seoSite(matches);
  return seoMeta({
    ...site,
    title: site.siteName,
    fullTitle: `${site.siteName} — Echoes of the Night`,
    description: `${site.siteName}, an electronic music collective from the Jersey Shore: listen to our tracks, see the gallery, read the blog and catch a show.`,
    url: location.pathname,
    image: data?.featured?.coverImage ?? '/hero.jpg',
    // The group only: each track's MusicRecording is on /music, where the tracks are listed.
    jsonLd: [musicGroupLd({ ...site, image: '/og-default.jpg', sameAs: socialLinks(matches) })],
  });
};

/** The home page shows 3 tracks, 3 gallery images and 3 posts. */
const HOME_COUNT = 3;
const HERO_TITLE_DEFAULT = 'Echoes of the Night';
/** A flag recording that this visitor has seen the home page before. */
const VISITED_STORAGE_KEY = 'night-shore:visited-home';

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  // Each read is bounded to what the page shows (issue 37); the posts without their bodies.
  const [featured, tracks, images, { items: posts }] = await Promise.all([
    getFeaturedTrackFor(viewer),
    listTracksFor(viewer, { limit: HOME_COUNT }),
    listGalleryImages({ limit: HOME_COUNT }),
    findBlogPostCardPage(viewer, { page: 1, perPage: HOME_COUNT }),
  ]);
  // Intrinsic sizes + responsive derivatives of the uploaded images the page shows.
  const infos = await imageInfos([
    featured?.coverImage,
    ...tracks.map((t) => t.coverImage),
    ...images.map((i) => i.imageUrl),
    ...posts.map((p) => p.imageUrl),
  ]);
  return { featured, tracks, images, posts, infos };
}

// The cards' widths in the grids below (`sizes`): from 1280px the `.container` is 1248px inside
// its padding, so three columns with gap-6 are 400px; below, 100/n vw slightly overestimates.
/** One column; 2 from `sm`, 3 from `lg` (as ImageGrid's 3 columns). */
const TRACK_SIZES =
  '(min-width: 1280px) 400px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw';
/** One column; 3 from `md`. */
const POST_SIZES = '(min-width: 1280px) 400px, (min-width: 768px) 33vw, 100vw';

/** A 429 of the action keeps its Retry-After on the page's answer. */
export const headers = retryAfterFromAction;

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  if (formData.get('intent') === SUBSCRIBE_INTENT)
    return subscribeAction(formData, 'full', '/', request);
  throw badRequest();
}

export default function Home() {
  const { featured, tracks, images, posts, infos } = useLoaderData<typeof loader>();
  const theme = useRootData()?.theme;

  useEffect(() => {
    try {
      window.localStorage.setItem(VISITED_STORAGE_KEY, '1');
    } catch {
      // Storage disabled: nothing to remember.
    }
  }, []);

  return (
    <>
      <section
        aria-labelledby="hero-title"
        className="relative isolate flex min-h-[85vh] items-center overflow-hidden"
      >
        {/* The page's main image: derivatives of public/hero.jpg (scripts/public-images.ts). */}
        <ResponsiveImage
          src="/hero.jpg"
          alt=""
          width={1920}
          height={1080}
          widths={[320, 640, 960, 1280]}
          webpWidths={[320, 640, 960, 1280]}
          sizes="100vw"
          priority
          className="absolute inset-0 -z-20 h-full w-full object-cover"
        />
        <div className="absolute inset-0 -z-10 bg-gradient-to-b from-background/70 via-background/60 to-background" />
        <div className="container pb-16 pt-32 text-center">
          <h1
            id="hero-title"
            className="mx-auto max-w-4xl text-5xl font-bold tracking-wider text-foreground drop-shadow md:text-7xl"
          >
            {theme?.heroTitle || HERO_TITLE_DEFAULT}
          </h1>
          {theme?.heroText ? (
            <p className="mx-auto mt-6 max-w-2xl text-lg text-foreground/90 md:text-xl">
              {theme.heroText}
            </p>
          ) : null}
          <div className="mt-10 flex flex-wrap justify-center gap-4">
            <Link to="/music" className={buttonClass('primary', 'lg')}>
              <Headphones aria-hidden="true" className="h-5 w-5" />
              Listen Now
            </Link>
            <a href="#newsletter" className={buttonClass('outline', 'lg', 'bg-background/40')}>
              <Mail aria-hidden="true" className="h-5 w-5" />
              Join the Newsletter
            </a>
          </div>
        </div>
      </section>

      <HeadedSection id="featured-title" title="Featured Track" className="container py-16">
        {/* Below the hero (the page's main image): not a priority, lazy. */}
        <FeaturedPlayer track={featured} image={featured && infos[featured.coverImage]} />
      </HeadedSection>

      <HeadedSection
        id="music-title"
        title="Our Music"
        intro="Late-night synths and boardwalk rhythms, straight from the shore."
        link={{ to: '/music', label: 'View all tracks' }}
        className="render-when-visible container py-16 [--placeholder-height:1860px] md:[--placeholder-height:670px]"
        empty={tracks.length === 0 ? 'No tracks available yet.' : null}
      >
        <TrackGrid
          tracks={tracks}
          infos={infos}
          className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
          sizes={TRACK_SIZES}
        />
      </HeadedSection>

      <HeadedSection
        id="gallery-title"
        title="Gallery"
        intro="Moments from the stage, the studio and the boardwalk."
        link={{ to: '/gallery', label: 'View gallery' }}
        className="render-when-visible container py-16 [--placeholder-height:1080px] md:[--placeholder-height:400px]"
        empty={images.length === 0 ? 'No images yet.' : null}
      >
        <ImageGrid images={images} columns={3} headingLevel={3} infos={infos} />
      </HeadedSection>

      <section
        id="newsletter"
        aria-labelledby="newsletter-title"
        className="scroll-mt-20 border-y border-border bg-card/50 py-16"
      >
        <div className="container max-w-3xl">
          <SectionHeading
            id="newsletter-title"
            title="Join the Newsletter"
            intro="New releases, show announcements and studio stories, a few times a month. No spam."
          />
          <NewsletterForm variant="full" />
        </div>
      </section>

      <HeadedSection
        id="blog-title"
        title="Latest from the Blog"
        link={{ to: '/blog', label: 'View all posts' }}
        className="render-when-visible container py-16 [--placeholder-height:1635px] md:[--placeholder-height:570px]"
        empty={posts.length === 0 ? 'No blog posts yet.' : null}
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {posts.map((post) => (
            <li key={post.id} className="flex">
              <BlogCard post={post} image={infos[post.imageUrl]} sizes={POST_SIZES} />
            </li>
          ))}
        </ul>
      </HeadedSection>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
