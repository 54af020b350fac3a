import { WaveformSvg } from '~/components/site/waveform';
import { cn } from '~/utils/cn';
import { formatClock } from '~/utils/media-time';
import type { WaveformShape } from '~/utils/waveform-path';

const ARROW_SECONDS = 5;
const PAGE_SECONDS = 60;

/**
 * The waveform as a seek slider (decision 034): a focusable `role="slider"` whose value is
 * the position in seconds; a click seeks to that point, arrows move 5 s, Page Up/Down a
 * minute, Home/End to either end. `onSeek` gets the wanted position. Render it once the page
 * is hydrated; before that (and without JS) the plain `WaveformSvg` stands in its place.
 */
export function WaveformSlider({
  id,
  shape,
  label,
  position,
  duration,
  onSeek,
  className,
  svgClassName,
}: {
  id: string;
  shape: WaveformShape;
  label: string;
  position: number;
  duration: number;
  onSeek: (seconds: number) => void;
  className?: string;
  svgClassName?: string;
}) {
  const max = duration > 0 ? Math.round(duration) : 0;
  const now = Math.max(0, Math.min(max, Math.round(position)));
  const seek = (seconds: number) => onSeek(Math.max(0, Math.min(max, seconds)));
  return (
    <div
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={now}
      aria-valuetext={`${formatClock(now)} of ${formatClock(max)}`}
      aria-disabled={max === 0 || undefined}
      data-testid="waveform-slider"
      className={cn(
        'cursor-pointer rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
      onClick={(e) => {
        if (max === 0) return;
        const box = e.currentTarget.getBoundingClientRect();
        if (box.width <= 0) return;
        seek(((e.clientX - box.left) / box.width) * max);
      }}
      onKeyDown={(e) => {
        if (max === 0 || e.altKey || e.ctrlKey || e.metaKey) return;
        const step: Record<string, number> = {
          ArrowRight: ARROW_SECONDS,
          ArrowUp: ARROW_SECONDS,
          ArrowLeft: -ARROW_SECONDS,
          ArrowDown: -ARROW_SECONDS,
          PageUp: PAGE_SECONDS,
          PageDown: -PAGE_SECONDS,
        };
        if (e.key === 'Home') seek(0);
        else if (e.key === 'End') seek(max);
        else if (e.key in step) seek(now + step[e.key]);
        else return;
        e.preventDefault();
      }}
    >
      <WaveformSvg
        id={id}
        shape={shape}
        progress={max > 0 ? position / max : 0}
        className={svgClassName}
      />
    </div>
  );
}
