import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';

import {
  Heart,
  ListMusic,
  Pause,
  Play,
  Repeat,
  Shuffle,
  SkipBack,
  SkipForward,
} from '~/components/site/icons';
import { cn } from '~/utils/cn';
import { currentRowIndex, formatClock } from '~/utils/media-time';

import {
  IconButton,
  PLACEHOLDER_COVER,
  POPUP_CLASS,
  SeekSlider,
  usePopup,
  VolumeControl,
} from './player-controls';
import { type PlayerContextValue, usePlayer } from './player-provider';
import { loadedEntries } from './player-queue';
import { useTrackPeaks } from './use-track-peaks';

/**
 * The waveform slider, loaded with the first track that has a waveform: the first visit to any
 * page does not pay for it (decision 027's budget); the plain slider stands in meanwhile.
 */
const WaveformSlider = lazy(() =>
  import('./waveform-slider').then((module) => ({ default: module.WaveformSlider })),
);

/**
 * The Share menu, loaded with the first track in the bar: a first visit to `/` (no track yet)
 * does not pay for it (decision 027); a box of its size keeps the buttons still meanwhile.
 */
const ShareMenu = lazy(() => import('./share-menu').then((m) => ({ default: m.ShareMenu })));

export const NO_TRACK_TEXT = 'No track selected. Visit the Music page to play a track.';

/**
 * The persistent player bar. `full`: everything, including volume, favourite and queue;
 * `mini`: a compact bar for small screens that renders nothing without a track.
 */
export function PlayerBar({
  mode = 'full',
  className,
}: {
  mode?: 'full' | 'mini';
  className?: string;
}) {
  const player = usePlayer();
  const track = player.current;
  // The waveform is fetched once the current track has been played in this tab: a track only
  // queued (or restored) costs no request, and a track without peaks no 404 on every page.
  const [heard, setHeard] = useState<number | null>(null);
  if (track && player.playing && heard !== track.id) setHeard(track.id);
  const peaks = useTrackPeaks(mode === 'full' && track && heard === track.id ? track.id : null);

  if (!track) {
    if (mode === 'mini') return null;
    return (
      <section
        aria-label="Audio player"
        className={cn('border-t border-border bg-card text-card-foreground', className)}
      >
        <p className="container py-4 text-center text-sm text-muted-foreground">{NO_TRACK_TEXT}</p>
      </section>
    );
  }

  const cover = (size: number) => (
    <img
      src={track.coverImage || PLACEHOLDER_COVER}
      alt=""
      width={size}
      height={size}
      className="shrink-0 rounded-md bg-muted object-cover"
      style={{ width: size, height: size }}
      onError={(e) => {
        const img = e.currentTarget;
        if (!img.src.endsWith(PLACEHOLDER_COVER)) img.src = PLACEHOLDER_COVER;
      }}
    />
  );

  const info = (
    <div className="min-w-0">
      <p className="truncate font-semibold" data-testid="player-title">
        {track.title}
      </p>
      <p className="truncate text-sm text-muted-foreground">
        {track.artist}
        {track.album ? <span> · {track.album}</span> : null}
      </p>
      <NowPlayingRow track={track} position={player.position} />
    </div>
  );

  const seekSlider = (
    <SeekSlider position={player.position} duration={player.totalDuration} onSeek={player.seek} />
  );
  const time = (
    <>
      <span className="w-10 shrink-0 text-right text-xs tabular-nums text-muted-foreground">
        <span className="sr-only">Elapsed </span>
        {formatClock(player.position)}
      </span>
      {peaks ? (
        <Suspense fallback={seekSlider}>
          <WaveformSlider
            id="player-waveform"
            shape={peaks}
            label="Seek"
            position={player.position}
            duration={player.totalDuration}
            onSeek={player.seek}
            className="h-8 min-w-0 flex-1"
            svgClassName="block h-8 w-full"
          />
        </Suspense>
      ) : (
        seekSlider
      )}
      <span className="w-10 shrink-0 text-xs tabular-nums text-muted-foreground">
        <span className="sr-only">Total </span>
        {formatClock(player.totalDuration)}
      </span>
    </>
  );

  if (mode === 'mini') {
    return (
      <section
        aria-label="Audio player"
        className={cn('border-t border-border bg-card px-3 py-2 text-card-foreground', className)}
      >
        <div className="flex items-center gap-2">
          {cover(40)}
          <div className="min-w-0 flex-1">{info}</div>
          <TransportButtons player={player} compact />
        </div>
        <div className="flex items-center gap-2">{time}</div>
      </section>
    );
  }

  return (
    <section
      aria-label="Audio player"
      className={cn('border-t border-border bg-card text-card-foreground', className)}
    >
      <div className="container grid grid-cols-1 items-center gap-2 py-2 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_minmax(0,1fr)] md:gap-4">
        <div className="flex min-w-0 items-center gap-3">
          {cover(48)}
          {info}
        </div>
        <div className="flex min-w-0 flex-col items-center">
          <TransportButtons player={player} />
          <div className="flex w-full items-center gap-2">{time}</div>
        </div>
        <div className="flex items-center justify-end gap-1">
          <IconButton
            label="Favourite"
            aria-pressed={player.isFavourite(track.id)}
            onClick={() => player.toggleFavourite(track.id)}
          >
            <Heart
              aria-hidden
              className={cn('h-5 w-5', player.isFavourite(track.id) && 'fill-current')}
            />
          </IconButton>
          <QueueButton player={player} />
          <Suspense fallback={<span className="h-10 w-10 shrink-0" />}>
            <ShareMenu id={track.id} position={player.position} />
          </Suspense>
          <VolumeControl volume={player.volume} onChange={player.setVolume} />
        </div>
      </div>
    </section>
  );
}

/** A mix's row playing now: "Now: Artist – Title" (nothing before its first row). */
function NowPlayingRow({
  track,
  position,
}: {
  track: NonNullable<PlayerContextValue['current']>;
  position: number;
}) {
  const rows = track.tracklist ?? [];
  const row = rows[currentRowIndex(rows, position)];
  if (!row) return null;
  return (
    <p className="truncate text-xs font-medium text-primary" data-testid="player-now">
      Now: {row.artist} – {row.title}
    </p>
  );
}

/** Shuffle or Loop: a toggle button; the compact bar hides it on the narrowest screens. */
function ModeButton({
  label,
  on,
  onClick,
  compact,
  children,
}: {
  label: string;
  on: boolean;
  onClick: () => void;
  compact: boolean;
  children: React.ReactNode;
}) {
  return (
    <IconButton
      label={label}
      aria-pressed={on}
      onClick={onClick}
      className={compact ? 'hidden min-[400px]:inline-flex' : undefined}
    >
      {children}
    </IconButton>
  );
}

function TransportButtons({
  player,
  compact = false,
}: {
  player: PlayerContextValue;
  compact?: boolean;
}) {
  return (
    <div className={cn('flex items-center', compact ? 'gap-0' : 'gap-1')}>
      <ModeButton
        label="Shuffle"
        on={player.shuffle}
        onClick={player.toggleShuffle}
        compact={compact}
      >
        <Shuffle aria-hidden className="h-4 w-4" />
      </ModeButton>
      <IconButton label="Previous track" onClick={player.prev}>
        <SkipBack aria-hidden className="h-5 w-5" />
      </IconButton>
      <IconButton
        label={player.playing ? 'Pause' : 'Play'}
        onClick={player.toggle}
        disabled={player.failed}
        className="bg-primary text-primary-foreground hover:bg-primary/90"
      >
        {player.playing ? (
          <Pause aria-hidden className="h-5 w-5" />
        ) : (
          <Play aria-hidden className="h-5 w-5" />
        )}
      </IconButton>
      <IconButton label="Next track" onClick={player.next}>
        <SkipForward aria-hidden className="h-5 w-5" />
      </IconButton>
      <ModeButton label="Loop" on={player.loop} onClick={player.toggleLoop} compact={compact}>
        <Repeat aria-hidden className="h-4 w-4" />
      </ModeButton>
    </div>
  );
}

/** Shows the play queue; choosing an entry plays it. */
function QueueButton({ player }: { player: PlayerContextValue }) {
  const popup = usePopup();
  const currentItem = useRef<HTMLButtonElement>(null);
  // The loaded positions (the catalogue queue loads windows of every track as it needs them).
  const queue = player.queue;
  const entries = useMemo(() => loadedEntries(queue), [queue]);

  useEffect(() => {
    if (!popup.open) return;
    currentItem.current?.focus();
    currentItem.current?.scrollIntoView({ block: 'nearest' });
  }, [popup.open]);

  return (
    <div ref={popup.wrapper} className="relative">
      <IconButton {...popup.buttonProps} label="Queue">
        <ListMusic aria-hidden className="h-5 w-5" />
      </IconButton>
      <div {...popup.panelProps} className={cn(POPUP_CLASS, 'w-72')}>
        <h2 className="border-b border-border px-3 py-2 text-sm font-semibold">
          Queue ({player.queue.size})
        </h2>
        {entries.length === 0 ? (
          <p className="px-3 py-3 text-sm text-muted-foreground">The queue is empty.</p>
        ) : (
          <ol className="max-h-72 overflow-y-auto py-1">
            {entries.map(([i, t]) => {
              const isCurrent = i === player.index;
              return (
                <li key={`${t.id}-${i}`}>
                  <button
                    type="button"
                    ref={isCurrent ? currentItem : undefined}
                    aria-current={isCurrent ? 'true' : undefined}
                    onClick={() => {
                      if (isCurrent) player.toggle();
                      else player.playIndex(i);
                    }}
                    className={cn(
                      'flex min-h-10 w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-muted',
                      isCurrent && 'font-semibold text-primary',
                    )}
                  >
                    <span className="w-5 shrink-0 text-xs tabular-nums text-muted-foreground">
                      {i + 1}
                    </span>
                    <span className="min-w-0 flex-1 truncate">
                      {t.title}
                      <span className="text-muted-foreground"> · {t.artist}</span>
                    </span>
                    <span className="shrink-0 text-xs tabular-nums text-muted-foreground">
                      {t.duration}
                    </span>
                  </button>
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </div>
  );
}
