import { Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';

import { Pause, Play, Share2 } from '~/components/site/icons';
import { WaveformSvg } from '~/components/site/waveform';
import type { TrackJSON, TracklistRow } from '~/types/entities';
import { cn } from '~/utils/cn';
import { currentRowIndex, deepLinkTime, formatClock } from '~/utils/media-time';
import type { WaveformShape } from '~/utils/waveform-path';

import { usePlayer } from './player-provider';
import { useHydrated } from './use-hydrated';
import { copyLink, useStatusMessage } from './use-status-message';
import { WaveformSlider } from './waveform-slider';

/** The parts of the track page that drive the player, for the page's layout to place. */
export type TrackPlaybackParts = {
  /** Play/Pause (without JS: the browser's own `<audio controls>`). */
  play: React.ReactNode;
  /** The waveform (a seek slider once hydrated), or null without peaks. */
  waveform: React.ReactNode;
  /** The tracklist, or null without rows. */
  tracklist: React.ReactNode;
  /** "Copy link", "Copy link at current time", "Share / embed". */
  share: React.ReactNode;
};

/**
 * The track page's player parts (decision 034), handed to `children` to lay out. Without JS:
 * the browser's own `<audio controls preload="none">` (its URL carries `#t=` for a deep link,
 * so it starts there too) and the waveform as a picture. Once hydrated: a Play/Pause button
 * driving the site-wide player, the waveform as a seek slider, and, with `startAt` (the page's
 * `?t=`), the track loaded into the player at that position, paused (browsers refuse autoplay).
 */
export function TrackPlayback({
  track,
  shape,
  startAt,
  children,
}: {
  track: TrackJSON;
  shape: WaveformShape | null;
  startAt: number | null;
  children: (parts: TrackPlaybackParts) => React.ReactNode;
}) {
  const player = usePlayer();
  const hydrated = useHydrated();
  const isCurrent = player.current?.id === track.id;
  const duration =
    isCurrent && player.totalDuration > 0 ? player.totalDuration : track.durationSeconds;
  const position = isCurrent ? player.position : (startAt ?? 0);

  // A deep link loads the track at its position once the saved player state is back.
  const applied = useRef<string | null>(null);
  const { restored, loadTrack } = player;
  useEffect(() => {
    if (!restored || startAt === null) return;
    const key = `${track.id}|${startAt}`;
    if (applied.current === key) return;
    applied.current = key;
    loadTrack(track, { autoplay: false, startAt });
  }, [restored, startAt, track, loadTrack]);

  /** Play from `seconds` (a row, the waveform): seeks the current track, or loads and plays. */
  const playFrom = (seconds: number) => loadTrack(track, { autoplay: true, startAt: seconds });
  const onPlay = () => {
    if (isCurrent) player.toggle();
    else loadTrack(track, { autoplay: true, startAt: startAt ?? undefined });
  };
  const src = player.audioSrc(track.audioFile);
  const waveformClass = 'block h-20 w-full md:h-24';

  const play = hydrated ? (
    <button
      type="button"
      onClick={onPlay}
      className="inline-flex min-h-12 items-center gap-2 rounded-full bg-primary px-6 py-2 text-lg font-semibold text-primary-foreground hover:bg-primary/90"
    >
      {isCurrent && player.playing ? (
        <Pause aria-hidden className="h-6 w-6" />
      ) : (
        <Play aria-hidden className="h-6 w-6" />
      )}
      {isCurrent && player.playing ? 'Pause' : 'Play'}
      <span className="sr-only"> {track.title}</span>
    </button>
  ) : (
    // eslint-disable-next-line jsx-a11y/media-has-caption -- instrumental music, no speech to caption
    <audio
      controls
      preload="none"
      src={startAt ? `${src}#t=${startAt}` : src}
      aria-label={`Play ${track.title}`}
      className="h-12 w-full max-w-md"
    >
      <a href={src}>Listen to {track.title}</a>
    </audio>
  );

  const waveform = shape ? (
    hydrated ? (
      <WaveformSlider
        id={`waveform-${track.id}`}
        shape={shape}
        label={`Seek in ${track.title}`}
        position={position}
        duration={duration}
        onSeek={playFrom}
        svgClassName={waveformClass}
      />
    ) : (
      <div data-testid="waveform">
        <WaveformSvg
          id={`waveform-${track.id}`}
          shape={shape}
          label={`Waveform of ${track.title}`}
          className={waveformClass}
        />
      </div>
    )
  ) : null;

  return children({
    play,
    waveform,
    tracklist:
      track.tracklist.length > 0 ? (
        <Tracklist
          rows={track.tracklist}
          active={isCurrent ? currentRowIndex(track.tracklist, player.position) : -1}
          onSeek={hydrated ? playFrom : null}
        />
      ) : null,
    share: <ShareLinks track={track} position={isCurrent ? player.position : null} />,
  });
}

/**
 * The tracklist: each row's time is a link to `?t=SECONDS` (without JS the page opens there;
 * with JS it seeks the player, starting the track when it is not playing), stretched over its
 * whole row so the row is the click target. `active`: the row playing now (-1: none).
 */
export function Tracklist({
  rows,
  active = -1,
  onSeek = null,
}: {
  rows: TracklistRow[];
  active?: number;
  onSeek?: ((seconds: number) => void) | null;
}) {
  return (
    <section aria-labelledby="tracklist-heading">
      <h2 id="tracklist-heading" className="mb-3 text-xl font-semibold">
        Tracklist
      </h2>
      <ol
        className="divide-y divide-border rounded-lg border border-border"
        data-testid="tracklist"
      >
        {rows.map((row, i) => (
          <li
            key={`${row.start}-${i}`}
            aria-current={i === active ? 'true' : undefined}
            // One line of text whose start time is the link, wrapped lines hung past the time
            // (padding 12 + 64 + 12 px, first line pulled back 76): an inline target, as WCAG
            // 2.5.8 counts it (the whole row answers the tap, through the link's ::after).
            className={cn(
              'relative py-2.5 pl-[5.5rem] pr-3 -indent-[4.75rem] hover:bg-muted',
              i === active && 'bg-primary/10',
            )}
          >
            <a
              href={`?t=${row.start}`}
              onClick={
                onSeek
                  ? (e) => {
                      e.preventDefault();
                      onSeek(row.start);
                    }
                  : undefined
              }
              className="mr-3 inline-block w-16 indent-0 font-mono text-sm tabular-nums text-primary underline-offset-4 after:absolute after:inset-0 after:content-[''] hover:underline"
            >
              <span className="sr-only">Play from </span>
              {formatClock(row.start)}
            </a>
            <span>
              <span className="font-medium">{row.artist}</span>
              {' – '}
              {row.title}
              {row.label ? <span className="text-muted-foreground"> [{row.label}]</span> : null}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** "Copy link", and "Copy link at current time" while this track is in the player. */
function ShareLinks({ track, position }: { track: TrackJSON; position: number | null }) {
  const hydrated = useHydrated();
  const [status, say] = useStatusMessage();
  const buttonClass =
    'inline-flex min-h-10 items-center gap-2 rounded-lg border border-border px-3 py-2 text-sm font-medium hover:bg-muted';
  if (!hydrated) {
    // Without JS (and until hydration): the page's own address to copy, in the buttons' place.
    return (
      <div className="flex flex-wrap items-center gap-2">
        <a href={`/music/${track.id}`} className={buttonClass}>
          <Share2 aria-hidden className="h-4 w-4" />
          Link to this track
        </a>
        <a id="share-open" href={`/music/${track.id}/share#share-link`} className={buttonClass}>
          <Share2 aria-hidden className="h-4 w-4" />
          Share / embed
        </a>
        <p className="min-h-5 w-full text-xs text-muted-foreground" />
      </div>
    );
  }

  const copy = (url: string) => copyLink(url, say);
  const base = `${window.location.origin}/music/${track.id}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button type="button" className={buttonClass} onClick={() => copy(base)}>
        <Share2 aria-hidden className="h-4 w-4" />
        Copy link
      </button>
      {position !== null ? (
        <button
          type="button"
          className={buttonClass}
          onClick={() => copy(`${base}?t=${deepLinkTime(position)}`)}
        >
          <Share2 aria-hidden className="h-4 w-4" />
          Copy link at current time ({formatClock(position)})
        </button>
      ) : null}
      <Link
        id="share-open"
        to={`/music/${track.id}/share${position !== null && position >= 1 ? `?t=${deepLinkTime(position)}` : ''}`}
        preventScrollReset
        className={buttonClass}
      >
        <Share2 aria-hidden className="h-4 w-4" />
        Share / embed
      </Link>
      <p role="status" aria-live="polite" className="min-h-5 w-full text-xs text-muted-foreground">
        {status}
      </p>
    </div>
  );
}
