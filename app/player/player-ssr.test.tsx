import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TrackJSON } from '~/types/entities';
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
  coverImage: '/uploads/images/neon.jpg',
  audioFile: '/uploads/audio/neon-boardwalk.mp3',
  featured: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};

const render = (node: React.ReactNode, assetHost = '') =>
  renderToString(<PlayerProvider assetHost={assetHost}>{node}</PlayerProvider>);

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

  it('mobile play button is disabled until a track is loaded', () => {
    const html = render(<MobilePlayButton />);
    expect(html).toMatch(/<button[^>]*disabled=""/);
    expect(html).toContain('>Play<');
  });
});
