import { WAVEFORM_HEIGHT, type WaveformShape } from '~/utils/waveform-path';

/**
 * A track's waveform as server-rendered SVG (decision 034): one `<path>` in `<defs>`, drawn
 * twice through `<use>`: in full, muted, and clipped to `progress` (0..1) in the primary
 * colour. Without `progress` only the muted one is drawn. `id` must be unique on the page.
 */
export function WaveformSvg({
  id,
  shape,
  progress,
  className,
  label,
}: {
  id: string;
  shape: WaveformShape;
  progress?: number | null;
  className?: string;
  /** Names the picture for assistive technology; without it the SVG is decorative. */
  label?: string;
}) {
  const played = progress == null ? null : Math.max(0, Math.min(1, progress)) * shape.columns;
  return (
    <svg
      viewBox={`0 0 ${shape.columns} ${WAVEFORM_HEIGHT}`}
      preserveAspectRatio="none"
      className={className}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      focusable="false"
    >
      <defs>
        <path id={`${id}-wave`} d={shape.d} />
        {played === null ? null : (
          <clipPath id={`${id}-played`}>
            <rect width={played} height={WAVEFORM_HEIGHT} />
          </clipPath>
        )}
      </defs>
      <use href={`#${id}-wave`} fill="currentColor" className="text-muted-foreground/60" />
      {played === null ? null : (
        <use
          href={`#${id}-wave`}
          fill="currentColor"
          clipPath={`url(#${id}-played)`}
          className="text-primary"
          data-testid="waveform-progress"
        />
      )}
    </svg>
  );
}
