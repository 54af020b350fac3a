import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom/server';
import { describe, expect, it } from 'vitest';

import type { ImageInfo } from '~/types/image-info';

import { BlogCard } from './blog-card';
import { ImageGrid } from './image-grid';
import { SiteFooter } from './site-footer';

/** The `<img>` tags of server-rendered HTML. */
const imgTags = (html: string) => html.match(/<img [^>]*>/g) ?? [];
/** The WebP `<source>` of each `<picture>`: where the sizes are, the `<img>` is its fallback. */
const sourceTags = (html: string) => html.match(/<source [^>]*>/g) ?? [];

// What imageInfo() reports for the demo's 1600-wide uploads.
const info = (src: string, height: number): ImageInfo => ({
  src,
  width: 1600,
  height,
  widths: [320, 640, 1280],
  webpWidths: [320, 640, 1280],
});

const post = {
  id: 1,
  title: 'Summer Shows',
  slug: 'summer-shows',
  excerpt: 'Dates on the boardwalk.',
  imageUrl: '/uploads/images/summer.jpg',
  category: 'EVENTS',
  visibility: 'public' as const,
  publicAt: null,
  locked: false,
  createdAt: '2026-05-01T12:00:00.000Z',
};
const postImage = info(post.imageUrl, 900);

const renderCard = (node: React.ReactNode) =>
  renderToString(<StaticRouter location="/blog">{node}</StaticRouter>);

describe('BlogCard image', () => {
  it('featured + priority: responsive, half the container from md up, eager, fetchpriority high', () => {
    const sizes = '(min-width: 1280px) 624px, (min-width: 768px) 50vw, 100vw';
    const html = renderCard(
      <BlogCard post={post} featured image={postImage} sizes={sizes} priority />,
    );
    expect(html).toContain(
      '<source type="image/webp" srcSet="/uploads/images/summer-320w.webp 320w, /uploads/images/summer-640w.webp 640w, /uploads/images/summer-1280w.webp 1280w"',
    );
    const [img = ''] = imgTags(html);
    expect(img).toContain('src="/uploads/images/summer.jpg"');
    // The <img> is the fallback of the <picture>: no second list of sizes.
    expect(img).not.toContain('srcSet');
    expect(sourceTags(html)[0]).toContain(`sizes="${sizes}"`);
    expect(img).toContain('width="1600" height="900"');
    expect(img).toContain('loading="eager"');
    expect(img).toContain('fetchpriority="high"');
    expect(img).toContain('aspect-video');
  });

  it('grid card: the caller’s sizes, lazy', () => {
    const sizes = '(min-width: 1280px) 400px, (min-width: 768px) 33vw, 100vw';
    const html = renderCard(<BlogCard post={post} image={postImage} sizes={sizes} />);
    const [img = ''] = imgTags(html);
    expect(sourceTags(html)[0]).toContain(`sizes="${sizes}"`);
    expect(img).toContain('loading="lazy"');
    expect(img).not.toContain('fetchpriority');
  });

  it('without an image info: a plain 800×450 img as before', () => {
    const html = renderCard(
      <BlogCard post={{ ...post, imageUrl: 'https://cdn.example/p.jpg' }} featured />,
    );
    expect(html).not.toContain('<picture');
    const [img = ''] = imgTags(html);
    expect(img).toContain('src="https://cdn.example/p.jpg"');
    expect(img).toContain('width="800" height="450"');
    expect(img).toContain('loading="lazy"');
    expect(img).not.toContain('srcSet');
  });
});

describe('ImageGrid images', () => {
  const images = [1, 2, 3].map((id) => ({
    id,
    title: `Image ${id}`,
    description: null,
    imageUrl: `/uploads/images/g${id}.jpg`,
  }));
  // The third has no info (e.g. its file is missing): a plain img.
  const infos = {
    '/uploads/images/g1.jpg': info('/uploads/images/g1.jpg', 1067),
    '/uploads/images/g2.jpg': info('/uploads/images/g2.jpg', 1067),
  };
  const THREE_COLUMNS =
    'sizes="(min-width: 1280px) 400px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"';

  it('the first priorityCount images are eager and high priority, the rest lazy', () => {
    const html = renderToString(
      <ImageGrid images={images} columns={3} infos={infos} priorityCount={1} />,
    );
    const [first = '', second = '', third = ''] = imgTags(html);
    expect(html.match(/<picture/g)).toHaveLength(2);
    expect(first).toContain('src="/uploads/images/g1.jpg"');
    const [firstSource = '', secondSource = ''] = sourceTags(html);
    expect(firstSource).toContain('srcSet="/uploads/images/g1-320w.webp 320w');
    expect(firstSource).toContain(THREE_COLUMNS);
    expect(first).toContain('width="1600" height="1067"');
    expect(first).toContain('loading="eager"');
    expect(first).toContain('fetchpriority="high"');
    expect(secondSource).toContain('srcSet="/uploads/images/g2-320w.webp 320w');
    expect(second).toContain('loading="lazy"');
    expect(second).not.toContain('fetchpriority');
    expect(third).toContain('src="/uploads/images/g3.jpg"');
    expect(third).toContain('width="800" height="600"');
    expect(third).toContain('loading="lazy"');
    expect(third).not.toContain('srcSet');
  });

  it('sizes follow the column count; no priority by default', () => {
    const sizesOf = (columns: 1 | 2 | 3 | 4) =>
      /sizes="([^"]*)"/.exec(
        sourceTags(
          renderToString(<ImageGrid images={images} columns={columns} infos={infos} />),
        )[0] ?? '',
      )?.[1];
    expect(sizesOf(1)).toBe(
      '(min-width: 1280px) 1248px, (min-width: 1024px) 100vw, (min-width: 640px) 100vw, 100vw',
    );
    expect(sizesOf(2)).toBe(
      '(min-width: 1280px) 612px, (min-width: 1024px) 50vw, (min-width: 640px) 50vw, 100vw',
    );
    expect(sizesOf(4)).toBe(
      '(min-width: 1280px) 294px, (min-width: 1024px) 25vw, (min-width: 640px) 50vw, 100vw',
    );
    const html = renderToString(<ImageGrid images={images} columns={2} infos={infos} />);
    expect(html).not.toContain('fetchpriority');
    expect(html).not.toContain('loading="eager"');
  });
});

describe('SiteFooter release covers', () => {
  it('show the thumbnail the root loader chose, 40 px, lazily', () => {
    const html = renderCard(
      <SiteFooter
        siteName="Night Shore"
        footerText=""
        social={{}}
        latestReleases={[
          {
            id: 1,
            title: 'Neon',
            type: 'Single',
            locked: false,
            thumbnail: '/uploads/images/neon-320w.webp',
          },
          { id: 2, title: 'Tide', type: 'EP', locked: true, thumbnail: '/placeholder-album.jpg' },
        ]}
        upcomingShows={[]}
        year={2026}
      />,
    );
    const [first, second] = imgTags(html);
    expect(first).toContain('src="/uploads/images/neon-320w.webp"');
    expect(first).toContain('width="40"');
    expect(first).toContain('height="40"');
    expect(first).toContain('loading="lazy"');
    expect(first).not.toContain('srcSet');
    expect(second).toContain('src="/placeholder-album.jpg"');
    expect(html).toContain('EP • 2026 • Members only');
  });
});
