import { Link } from '@remix-run/react';

import { Download, ListPlus, Pause, Play, Share2 } from '~/components/site/icons';
import { MembersOnlyBadge, UnlockLink } from '~/components/site/members-only';
import type { TrackJSON, TrackView } from '~/types/entities';
import type { ImageInfo } from '~/types/image-info';
import { audioPendingText, isPlayable, UNAVAILABLE_TEXT } from '~/utils/access';
import { cn } from '~/utils/cn';

import { FavouriteButton } from './favourite-button';
import { usePlayerCommands, useTrackStatus } from './player-provider';
import { queueHolds } from './player-queue';
import { TrackCover } from './track-cover';
import { useHydrated } from './use-hydrated';
import { copyLink, useStatusMessage } from './use-status-message';

/** The track grid of /music and /account/favourites: one column; 2 from `sm`, 3 from `lg`, 4 from `xl`. */
export const TRACK_GRID_CLASS =
  'grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';
/**
 * The cards' width (`sizes`) in that grid: the `.container` is 1248px inside its padding at
 * `xl`: 294px with the gaps; below, 100/n vw slightly overestimates.
 */
export const TRACK_GRID_SIZES =
  '(min-width: 1280px) 294px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw';

/** The link a share points to: the track's own page (decision 034). */
export function trackShareUrl(id: number, origin: string): string {
  return `${origin}/music/${id}`;
}

/**
 * A track card. A locked track (members-only, seen without an account) shows its badge and a
 * link to log in and come back to it, in place of the player, share, queue and download.
 * Without JS it holds the browser's own `<audio controls preload="none">`;
 * once hydrated that is replaced by a Play/Pause button driving the site-wide player.
 * `queue`: the list the card belongs to; playing from it makes that list the play queue when
 * the track is not queued yet.
 * `image`: what the server knows about the cover (from `imageInfos`): a responsive `<picture>`;
 * without it (fallback cover, external URL) a plain 400×400 `<img>`. `sizes` is the card's
 * rendered width in the caller's grid; `priority` for the page's first, above-the-fold card.
 */
export function TrackCard({
  track,
  queue,
  headingLevel = 3,
  ...frame
}: {
  track: TrackView;
  queue?: TrackView[];
  className?: string;
  headingLevel?: 2 | 3 | 4;
  image?: ImageInfo | null;
  sizes?: string;
  priority?: boolean;
}) {
  if (track.locked) return <LockedTrackCard track={track} headingLevel={headingLevel} {...frame} />;
  if (!isPlayable(track)) {
    const note = audioPendingText(track) ?? UNAVAILABLE_TEXT;
    return <PendingTrackCard track={track} note={note} headingLevel={headingLevel} {...frame} />;
  }
  return (
    <PlayableTrackCard
      track={track}
      queue={queue?.filter(isPlayable)}
      headingLevel={headingLevel}
      {...frame}
    />
  );
}

/**
 * A list of track cards that queue each other: the home page's three and /account/favourites.
 * `className` lays out the grid (TRACK_GRID_CLASS on a full-width page); `sizes` is a card's
 * width in it. Every `<li>` is `data-testid="track-card"`.
 */
export function TrackGrid({
  tracks,
  infos,
  className,
  sizes,
  testId,
}: {
  tracks: TrackView[];
  infos: Readonly<Record<string, ImageInfo | null | undefined>>;
  className: string;
  sizes: string;
  testId?: string;
}) {
  return (
    <ul className={className} data-testid={testId}>
      {tracks.map((track) => (
        <li key={track.id} data-testid="track-card">
          <TrackCard
            track={track}
            queue={tracks}
            image={infos[track.coverImage]}
            sizes={sizes}
            className="h-full"
          />
        </li>
      ))}
    </ul>
  );
}

type CardProps<T> = {
  track: T;
  className?: string;
  headingLevel: 2 | 3 | 4;
  image?: ImageInfo | null;
  sizes?: string;
  priority?: boolean;
};

function PlayableTrackCard({
  track,
  queue,
  className,
  headingLevel,
  image,
  sizes,
  priority,
}: CardProps<TrackJSON> & { queue?: TrackJSON[] }) {
  // Only this track's slice of the player (decision 034): a state change re-renders the cards
  // whose slice changed, not all of them. Whether it is queued matters only on a click.
  const player = usePlayerCommands();
  const { isCurrent, isPlaying } = useTrackStatus(track.id);
  const hydrated = useHydrated();
  const [status, say] = useStatusMessage();

  const src = player.audioSrc(track.audioFile);
  const isQueued = () => queueHolds(player.store.getSnapshot().player.queue, track.id);
  const onPlay = () => {
    if (!isCurrent && !isQueued() && queue && queue.some((t) => t.id === track.id)) {
      player.setQueue(
        queue,
        queue.findIndex((t) => t.id === track.id),
        { keepCurrent: false },
      );
    }
    player.playTrack(track);
  };

  const onShare = async () => {
    const url = trackShareUrl(track.id, window.location.origin);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({
          title: track.title,
          text: `${track.title} by ${track.artist}`,
          url,
        });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        // Share refused (e.g. no share target): fall back to copying.
      }
    }
    await copyLink(url, say);
  };

  const onAddToQueue = () => {
    if (isQueued()) {
      say('Already in the queue');
      return;
    }
    player.addToQueue(track);
    say('Added to queue');
  };

  return (
    <CardFrame
      track={track}
      className={cn(isCurrent && 'ring-2 ring-primary', className)}
      headingLevel={headingLevel}
      image={image}
      sizes={sizes}
      priority={priority}
    >
      {/* One row (issue 36): in the narrowest card (258 px inside, at 640 px; 260 at 1280 px)
          "Pause" and the four round buttons, all 36 px tall, take 240 px in Inter, room for a
          wider font (tests/e2e/mix-page-layout.spec.ts measures it). */}
      <div className="mt-auto flex flex-wrap items-center gap-0.5 pt-2">
        {hydrated ? (
          <>
            <button
              type="button"
              onClick={onPlay}
              aria-label={`${isPlaying ? 'Pause' : 'Play'} ${track.title}`}
              className="mr-auto inline-flex h-9 items-center gap-1.5 rounded-lg bg-primary px-3 text-sm font-semibold text-primary-foreground hover:bg-primary/90"
            >
              {isPlaying ? (
                <Pause aria-hidden className="h-4 w-4" />
              ) : (
                <Play aria-hidden className="h-4 w-4" />
              )}
              {isPlaying ? 'Pause' : 'Play'}
            </button>
            <button
              type="button"
              aria-label={`Share ${track.title}`}
              title={`Share ${track.title}`}
              onClick={onShare}
              className="round-button"
            >
              <Share2 aria-hidden className="h-4 w-4" />
            </button>
            <button
              type="button"
              aria-label={`Add ${track.title} to queue`}
              title={`Add ${track.title} to queue`}
              onClick={onAddToQueue}
              className="round-button"
            >
              <ListPlus aria-hidden className="h-4 w-4" />
            </button>
          </>
        ) : (
          // eslint-disable-next-line jsx-a11y/media-has-caption -- instrumental music, no speech to caption
          <audio
            controls
            preload="none"
            src={src}
            aria-label={`Play ${track.title}`}
            className="mr-auto h-9 min-w-0 flex-1"
          >
            <a href={src}>Listen to {track.title}</a>
          </audio>
        )}
        <FavouriteButton trackId={track.id} title={track.title} />
        <a
          href={src}
          download
          aria-label={`Download ${track.title}`}
          title={`Download ${track.title}`}
          className="round-button"
        >
          <Download aria-hidden className="h-4 w-4" />
        </a>
      </div>
      <p role="status" aria-live="polite" className="min-h-5 text-xs text-muted-foreground">
        {status}
      </p>
    </CardFrame>
  );
}

/** A members-only track seen without an account: no audio, a way in instead. */
function LockedTrackCard({ track, ...frame }: CardProps<TrackView>) {
  return (
    <CardFrame track={track} {...frame}>
      <MembersOnlyBadge item={track} className="pt-1" />
      <div className="mt-auto flex flex-wrap items-center gap-1 pt-2">
        <UnlockLink
          path={`/music?track=${track.id}`}
          className="mr-auto inline-flex min-h-10 items-center gap-2 rounded-lg bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground hover:bg-primary/90"
        >
          Log in to play<span className="sr-only"> {track.title}</span>
        </UnlockLink>
      </div>
    </CardFrame>
  );
}

/** A track whose stream is still being made (or could not be): no audio yet, a note instead. */
function PendingTrackCard({ track, note, ...frame }: CardProps<TrackView> & { note: string }) {
  return (
    <CardFrame track={track} {...frame}>
      <div className="mt-auto flex flex-wrap items-center gap-1 pt-2">
        <p className="mr-auto inline-flex min-h-10 items-center rounded-lg border border-border px-4 py-2 text-sm font-semibold text-muted-foreground">
          {note}
          <span className="sr-only"> {track.title}</span>
        </p>
      </div>
    </CardFrame>
  );
}

/** What every card shows: cover, title, duration, album or artist; then its `children`. */
function CardFrame({
  track,
  className,
  headingLevel,
  image,
  sizes,
  priority,
  children,
}: CardProps<TrackView> & { children: React.ReactNode }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article
      className={cn('card', className)}
      id={`track-${track.id}`}
      data-track-id={track.id}
      data-locked={track.locked || undefined}
    >
      <TrackCover
        track={track}
        image={image}
        size={400}
        sizes={sizes}
        priority={priority}
        className="aspect-square w-full bg-muted object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <Heading className="font-heading text-lg font-semibold leading-tight">
            {/* A client-side navigation with JS: the player keeps playing. */}
            <Link to={`/music/${track.id}`} className="hover:text-primary hover:underline">
              {track.title}
            </Link>
          </Heading>
          <span className="shrink-0 text-sm tabular-nums text-muted-foreground">
            <span className="sr-only">Duration </span>
            {track.duration}
          </span>
        </div>
        <p className="text-sm text-muted-foreground">
          {track.album ? `From the album "${track.album}"` : track.artist}
        </p>
        {children}
      </div>
    </article>
  );
}
