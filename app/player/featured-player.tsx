import { useEffect, useRef } from 'react';

import { Pause, Play, RotateCcw, RotateCw } from '~/components/site/icons';
import { MembersOnlyBadge, UnlockLink } from '~/components/site/members-only';
import type { TrackView } from '~/types/entities';
import type { ImageInfo } from '~/types/image-info';
import { audioPendingText, isPlayable, UNAVAILABLE_TEXT } from '~/utils/access';
import { cn } from '~/utils/cn';
import { formatClock } from '~/utils/media-time';

import { SeekSlider } from './player-controls';
import { FEATURED_SEEK_SECONDS, PLAY_START_DELAY_MS } from './player-machine';
import { usePlayer } from './player-provider';
import { TrackCover } from './track-cover';
import { useHydrated } from './use-hydrated';

export const NO_FEATURED_TEXT = 'No featured track available.';

/**
 * The home page's featured-track player (starts after ~100 ms, skips ±10 s while current).
 * `image`: the cover's `imageInfo` (responsive `<picture>`; none → a plain `<img>`). Lazy: the
 * player sits below the home page's hero.
 */
export function FeaturedPlayer({
  track,
  className,
  image,
}: {
  track: TrackView | null;
  className?: string;
  image?: ImageInfo | null;
}) {
  const player = usePlayer();
  const hydrated = useHydrated();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  if (!track) {
    return (
      <div className={cn('rounded-lg border border-border bg-card p-6 text-center', className)}>
        <p className="text-muted-foreground">{NO_FEATURED_TEXT}</p>
      </div>
    );
  }

  const buttonClass =
    'inline-flex min-h-10 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold';

  if (track.locked) {
    return (
      <FeaturedFrame track={track} image={image} className={className}>
        <MembersOnlyBadge item={track} />
        <UnlockLink
          path={`/music?track=${track.id}`}
          className={cn(
            buttonClass,
            'self-start bg-primary text-primary-foreground hover:bg-primary/90',
          )}
        >
          Log in to play<span className="sr-only"> {track.title}</span>
        </UnlockLink>
      </FeaturedFrame>
    );
  }

  if (!isPlayable(track)) {
    return (
      <FeaturedFrame track={track} image={image} className={className}>
        <p className="self-start rounded-lg border border-border px-4 py-2 text-sm font-semibold text-muted-foreground">
          {audioPendingText(track) ?? UNAVAILABLE_TEXT}
        </p>
      </FeaturedFrame>
    );
  }

  const isCurrent = player.current?.id === track.id;
  const isPlaying = isCurrent && player.playing;

  const onPlay = () => {
    if (isCurrent) {
      player.toggle();
      return;
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => player.playTrack(track), PLAY_START_DELAY_MS);
  };

  return (
    <FeaturedFrame track={track} image={image} className={className}>
      {hydrated ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            {isCurrent ? (
              <button
                type="button"
                onClick={() => player.seekBy(-FEATURED_SEEK_SECONDS)}
                className={cn(buttonClass, 'border border-border hover:bg-muted')}
              >
                <RotateCcw aria-hidden className="h-4 w-4" />
                <span>-10s</span>
                <span className="sr-only"> (back 10 seconds)</span>
              </button>
            ) : null}
            <button
              type="button"
              onClick={onPlay}
              className={cn(buttonClass, 'bg-primary text-primary-foreground hover:bg-primary/90')}
            >
              {isPlaying ? (
                <Pause aria-hidden className="h-4 w-4" />
              ) : (
                <Play aria-hidden className="h-4 w-4" />
              )}
              {isPlaying ? 'Pause' : 'Play'}
            </button>
            {isCurrent ? (
              <button
                type="button"
                onClick={() => player.seekBy(FEATURED_SEEK_SECONDS)}
                className={cn(buttonClass, 'border border-border hover:bg-muted')}
              >
                <RotateCw aria-hidden className="h-4 w-4" />
                <span>+10s</span>
                <span className="sr-only"> (forward 10 seconds)</span>
              </button>
            ) : null}
          </div>
          {isCurrent ? (
            <div className="flex items-center gap-2">
              <span className="text-xs tabular-nums text-muted-foreground">
                {formatClock(player.position)}
              </span>
              <SeekSlider
                label={`Seek in ${track.title}`}
                position={player.position}
                duration={player.totalDuration}
                onSeek={player.seek}
              />
              <span className="text-xs tabular-nums text-muted-foreground">
                {formatClock(player.totalDuration)}
              </span>
            </div>
          ) : null}
        </>
      ) : (
        // Without JS: the browser's own player.
        // eslint-disable-next-line jsx-a11y/media-has-caption -- instrumental music, no speech to caption
        <audio
          controls
          preload="none"
          src={player.audioSrc(track.audioFile)}
          className="w-full"
          aria-label={`Play ${track.title}`}
        >
          <a href={player.audioSrc(track.audioFile)}>Download {track.title}</a>
        </audio>
      )}
    </FeaturedFrame>
  );
}

/** The featured card: cover, title, then what the track allows (play, or the way to unlock). */
function FeaturedFrame({
  track,
  image,
  className,
  children,
}: {
  track: TrackView;
  image?: ImageInfo | null;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <article
      aria-label={`Featured track: ${track.title}`}
      className={cn(
        'flex flex-col gap-6 rounded-lg border border-border bg-card p-6 text-card-foreground md:flex-row md:items-center',
        className,
      )}
    >
      <FeaturedCover track={track} image={image} />
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <FeaturedTitle track={track} />
        {children}
      </div>
    </article>
  );
}

function FeaturedCover({ track, image }: { track: TrackView; image?: ImageInfo | null }) {
  return (
    <TrackCover
      track={track}
      image={image}
      size={240}
      // w-full max-w-60: at most 240 CSS px wide at every breakpoint.
      sizes="240px"
      className="aspect-square w-full max-w-60 rounded-lg bg-muted object-cover"
    />
  );
}

function FeaturedTitle({ track }: { track: TrackView }) {
  return (
    <>
      <p className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">
        Featured track
      </p>
      <h3 className="font-heading text-2xl font-bold">{track.title}</h3>
      <p className="text-muted-foreground">
        {track.artist}
        {track.album ? <span> · {track.album}</span> : null}
        <span> · {track.duration}</span>
      </p>
    </>
  );
}
