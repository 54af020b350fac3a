import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImageInfo } from '~/types/image-info';
import type { TrackJSON } from '~/types/entities';
import { BlogCard } from './blog-card';
import { ImageGrid } from './image-grid';
import { SiteFooter } from './site-footer';

/** The `<img>` tags of server-rendered HTML. */
const imgTags = (html: string) => html.match(/<img [^>]*>/g) ?? [];

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
    expect(img).toContain(
      'srcSet="/uploads/images/summer-320w.jpg 320w, /uploads/images/summer-640w.jpg 640w, /uploads/images/summer-1280w.jpg 1280w, /uploads/images/summer.jpg 1600w"',
    );
    expect(img).toContain(`sizes="${sizes}"`);
    expect(img).toContain('width="1600" height="900"');
    expect(img).toContain('loading="eager"');
    expect(img).toContain('fetchpriority="high"');
    expect(img).toContain('aspect-video');
  });

  it('grid card: the caller’s sizes, lazy', () => {
    const sizes = '(min-width: 1280px) 400px, (min-width: 768px) 33vw, 100vw';
    const [img = ''] = imgTags(
      renderCard(<BlogCard post={post} image={postImage} sizes={sizes} />),
    );
    expect(img).toContain(`sizes="${sizes}"`);
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
    expect(first).toContain('srcSet="/uploads/images/g1-320w.jpg 320w');
    expect(first).toContain(THREE_COLUMNS);
    expect(first).toContain('width="1600" height="1067"');
    expect(first).toContain('loading="eager"');
    expect(first).toContain('fetchpriority="high"');
    expect(second).toContain('srcSet="/uploads/images/g2-320w.jpg 320w');
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
        imgTags(renderToString(<ImageGrid images={images} columns={columns} infos={infos} />))[0] ??
          '',
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
  const track = (id: number, coverImage: string): TrackJSON => ({
    id,
    title: `Track ${id}`,
    artist: 'Night Shore',
    album: null,
    type: 'Single',
    duration: '3:30',
    coverImage,
    audioFile: '/uploads/audio/a.mp3',
    featured: false,
    visibility: 'public',
    publicAt: null,
    locked: false,
    createdAt: '2026-05-01T12:00:00.000Z',
  });

  it('use the smallest derivative for the 40 px thumbnail, lazily; plain img without an info', () => {
    const cover = '/uploads/images/neon.jpg';
    const html = renderCard(
      <SiteFooter
        siteName="Night Shore"
        footerText=""
        social={{}}
        latestTracks={[track(1, cover), track(2, '/uploads/images/unknown.jpg')]}
        latestCovers={{ [cover]: info(cover, 1600) }}
        upcomingShows={[]}
        year={2026}
      />,
    );
    expect(html).toContain(
      '<source type="image/webp" srcSet="/uploads/images/neon-320w.webp 320w, /uploads/images/neon-640w.webp 640w, /uploads/images/neon-1280w.webp 1280w" sizes="40px"/>',
    );
    const [first, second] = imgTags(html);
    expect(first).toContain('sizes="40px"');
    expect(first).toContain('loading="lazy"');
    expect(second).toContain('src="/uploads/images/unknown.jpg"');
    expect(second).toContain('width="40"');
    expect(second).toContain('height="40"');
    expect(second).not.toContain('srcSet');
  });
});
