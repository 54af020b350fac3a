import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom/server';
import { describe, expect, it } from 'vitest';

import type { TrackJSON } from '~/types/entities';
import type { ImageInfo } from '~/types/image-info';

import { FeaturedPlayer, NO_FEATURED_TEXT } from './featured-player';
import { MobilePlayButton } from './mobile-play-button';
import { NO_TRACK_TEXT, PlayerBar } from './player-bar';
import { PlayerProvider } from './player-provider';
import { TrackCard } from './track-card';

const track: TrackJSON = {
  id: 7,
  title: 'Neon Boardwalk',
  artist: 'Night Shore',
  album: 'Shoreline',
  type: 'Single',
  duration: '3:45',
  durationSeconds: 0,
  description: null,
  tracklist: [],
  audioStatus: 'ready',
  coverImage: '/uploads/images/neon.jpg',
  audioFile: '/uploads/audio/neon-boardwalk.mp3',
  featured: true,
  visibility: 'public',
  publicAt: null,
  locked: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};

// Track cards link to their track page: a router around them, as in the app.
const render = (node: React.ReactNode, assetHost = '') =>
  renderToString(
    <StaticRouter location="/music">
      <PlayerProvider assetHost={assetHost}>{node}</PlayerProvider>
    </StaticRouter>,
  );

describe('server-rendered player HTML (what a browser without JS gets)', () => {
  it('renders exactly one site audio element, preload none', () => {
    const html = render(<p>page</p>);
    expect(html.match(/<audio/g)).toHaveLength(1);
    expect(html).toContain('id="site-audio"');
    expect(html).toContain('preload="none"');
  });

  it('gives a track card a native audio player and a download link', () => {
    const html = render(<TrackCard track={track} />);
    expect(html).toMatch(
      /<audio[^>]*controls=""[^>]*preload="none"[^>]*src="\/uploads\/audio\/neon-boardwalk.mp3"/,
    );
    expect(html).toMatch(/<a href="\/uploads\/audio\/neon-boardwalk.mp3" download=""/);
    expect(html).toContain('From the album &quot;Shoreline&quot;');
    expect(html).toContain('3:45');
    expect(html).toMatch(/<img[^>]*width="400"[^>]*height="400"/);
    // The title links to the track's own page (decision 034).
    expect(html).toMatch(new RegExp(`<a[^>]*href="/music/${track.id}"[^>]*>Neon Boardwalk</a>`));
    // The JS-only controls are not shown to a browser that can't use them.
    expect(html).not.toContain('Add Neon Boardwalk to queue');
  });

  it('shows the artist when there is no album, and normalises the audio path', () => {
    const html = render(
      <TrackCard track={{ ...track, album: null, audioFile: 'sample.mp3' }} />,
      'https://cdn.test',
    );
    expect(html).toContain('Night Shore');
    expect(html).not.toContain('From the album');
    expect(html).toContain('src="https://cdn.test/uploads/audio/fallback.mp3"');
  });

  it('full bar without a track says so; mini bar renders nothing', () => {
    expect(render(<PlayerBar mode="full" />)).toContain(NO_TRACK_TEXT);
    expect(NO_TRACK_TEXT).toBe('No track selected. Visit the Music page to play a track.');
    expect(render(<PlayerBar mode="mini" />)).not.toContain('Audio player');
  });

  it('featured player: native audio without JS, text when there is no track', () => {
    expect(render(<FeaturedPlayer track={track} />)).toMatch(/<audio[^>]*controls=""/);
    const none = render(<FeaturedPlayer track={null} />);
    expect(none).toContain(NO_FEATURED_TEXT);
    expect(NO_FEATURED_TEXT).toBe('No featured track available.');
  });

  it('a track still processing (or failed) shows a note instead of any audio (decision 035)', () => {
    const processing = { ...track, audioStatus: 'processing' as const };
    for (const html of [
      render(<TrackCard track={processing} />),
      render(<FeaturedPlayer track={processing} />),
    ]) {
      // Only the site's own (empty) audio element: no player, no download of the upload.
      expect(html.match(/<audio/g)).toHaveLength(1);
      expect(html).not.toContain('neon-boardwalk.mp3');
      expect(html).toContain('Processing…');
    }
    const failed = render(<TrackCard track={{ ...track, audioStatus: 'failed' }} />);
    expect(failed).toContain('Not available');
    expect(failed).not.toContain('neon-boardwalk.mp3');
  });

  it('mobile play button is disabled until a track is loaded', () => {
    const html = render(<MobilePlayButton />);
    expect(html).toMatch(/<button[^>]*disabled=""/);
    expect(html).toContain('>Play<');
  });
});

describe('cover images: responsive when the server knows them, plain otherwise', () => {
  // What imageInfo() reports for a 1200×1200 upload: no 1280w (never upscaled), a full-size WebP.
  const cover: ImageInfo = {
    src: '/uploads/images/neon.jpg',
    width: 1200,
    height: 1200,
    widths: [320, 640],
    webpWidths: [320, 640, 1200],
  };
  const SIZES =
    '(min-width: 1280px) 294px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw';
  const imgTag = (html: string) => html.match(/<img [^>]*>/)?.[0] ?? '';

  it('track card: a picture with a WebP srcset and the given sizes, lazy by default', () => {
    const html = render(<TrackCard track={track} image={cover} sizes={SIZES} />);
    expect(html).toContain(
      `<source type="image/webp" srcSet="/uploads/images/neon-320w.webp 320w, /uploads/images/neon-640w.webp 640w, /uploads/images/neon-1200w.webp 1200w" sizes="${SIZES}"/>`,
    );
    const img = imgTag(html);
    // src stays the original (the fallback for browsers without srcset, and what tests look for).
    expect(img).toContain('src="/uploads/images/neon.jpg"');
    // The <img> is the <picture>'s fallback: no second srcset (issue 19).
    expect(img).not.toContain('srcSet');
    expect(img).toContain('width="1200" height="1200"');
    expect(img).toContain('loading="lazy"');
    expect(img).not.toContain('fetchpriority');
    expect(img).toContain('aspect-square w-full');
  });

  it('track card: priority makes the cover eager with fetchpriority high', () => {
    const img = imgTag(render(<TrackCard track={track} image={cover} sizes={SIZES} priority />));
    expect(img).toContain('loading="eager"');
    expect(img).toContain('fetchpriority="high"');
  });

  it('track card without an image info (fallback cover, external URL): a plain 400×400 img', () => {
    for (const coverImage of ['', 'https://cdn.example/cover.jpg']) {
      const html = render(<TrackCard track={{ ...track, coverImage }} sizes={SIZES} />);
      expect(html).not.toContain('<picture');
      const img = imgTag(html);
      expect(img).toContain(`src="${coverImage || '/placeholder-album.jpg'}"`);
      expect(img).toContain('width="400" height="400"');
      expect(img).toContain('loading="lazy"');
      expect(img).not.toContain('srcSet');
      expect(img).not.toContain('sizes');
    }
  });

  it('featured player: a 240px-wide responsive cover, lazy (it is below the hero)', () => {
    const html = render(<FeaturedPlayer track={track} image={cover} />);
    expect(html).toContain('<source type="image/webp"');
    expect(html).toContain('srcSet="/uploads/images/neon-320w.webp 320w');
    expect(html).toContain('sizes="240px"');
    const img = imgTag(html);
    expect(img).toContain('width="1200" height="1200"');
    expect(img).toContain('loading="lazy"');
    expect(img).not.toContain('fetchpriority');

    const plain = imgTag(render(<FeaturedPlayer track={track} />));
    expect(plain).toContain('width="240" height="240"');
    expect(plain).not.toContain('srcSet');
  });
});
