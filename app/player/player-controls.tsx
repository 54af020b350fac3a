import { forwardRef, useCallback, useEffect, useId, useRef, useState } from 'react';

import { Volume1, Volume2, VolumeX } from '~/components/site/icons';
import { cn } from '~/utils/cn';

import { listen } from './listen';
import { formatTimeForSpeech, SEEK_STEP_SECONDS, volumeLevel } from './player-machine';

/** Keyboard seek jump for the arrow keys (the slider's own step, 0.1 s, is too fine to key). */
const ARROW_SEEK_SECONDS = 5;

export { PLACEHOLDER_COVER } from '~/utils/image-url';

/** A square icon button at least 40x40 px (WCAG target size), with its name in aria-label. */
export const IconButton = forwardRef<
  HTMLButtonElement,
  React.ButtonHTMLAttributes<HTMLButtonElement> & { label: string }
>(function IconButton({ label, className, children, ...props }, ref) {
  return (
    <button
      ref={ref}
      type="button"
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-foreground transition-colors hover:bg-muted disabled:cursor-not-allowed disabled:opacity-50 aria-pressed:text-primary',
        className,
      )}
      {...props}
    >
      {children}
    </button>
  );
});

/**
 * The seek slider: a native range input (role slider, Home/End, click and drag to seek) with a
 * 0.1 s step, arrows jumping 5 s, and the position spoken as '1 minute 5 seconds'.
 * While dragging, the position is shown but applied only on release.
 */
export function SeekSlider({
  position,
  duration,
  onSeek,
  className,
  label = 'Seek',
}: {
  position: number;
  duration: number;
  onSeek: (seconds: number) => void;
  className?: string;
  label?: string;
}) {
  const [scrub, setScrub] = useState<number | null>(null);
  const dragging = useRef(false);
  const max = duration > 0 ? duration : 0;
  const value = Math.min(scrub ?? position, max);

  const commit = (v: number) => {
    dragging.current = false;
    setScrub(null);
    if (Number.isFinite(v)) onSeek(v);
  };

  return (
    <input
      type="range"
      aria-label={label}
      aria-valuetext={formatTimeForSpeech(value)}
      min={0}
      max={max}
      step={SEEK_STEP_SECONDS}
      value={value}
      disabled={max === 0}
      className={cn(
        'h-6 w-full min-w-0 cursor-pointer accent-primary disabled:cursor-not-allowed',
        className,
      )}
      onPointerDown={() => {
        dragging.current = true;
      }}
      onPointerUp={(e) => commit(e.currentTarget.valueAsNumber)}
      onPointerCancel={() => {
        dragging.current = false;
        setScrub(null);
      }}
      onChange={(e) => {
        const v = e.currentTarget.valueAsNumber;
        if (dragging.current) setScrub(v);
        else commit(v);
      }}
      onKeyDown={(e) => {
        if (e.altKey || e.ctrlKey || e.metaKey) return;
        const delta =
          e.key === 'ArrowRight' || e.key === 'ArrowUp'
            ? ARROW_SEEK_SECONDS
            : e.key === 'ArrowLeft' || e.key === 'ArrowDown'
              ? -ARROW_SEEK_SECONDS
              : 0;
        if (!delta) return;
        e.preventDefault();
        commit(Math.min(max, Math.max(0, position + delta)));
      }}
    />
  );
}

/**
 * Closes a popup on Escape (focus back to its button), on a pointer press outside it and
 * when focus moves outside it.
 */
function useDismiss(
  open: boolean,
  close: () => void,
  wrapper: React.RefObject<HTMLElement | null>,
  button: React.RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    if (!open) return;
    const outside = (target: EventTarget | null) =>
      !!wrapper.current && target instanceof Node && !wrapper.current.contains(target);
    const onPointerDown = (e: PointerEvent) => {
      if (outside(e.target)) close();
    };
    const onFocusIn = (e: FocusEvent) => {
      if (outside(e.target)) close();
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      close();
      button.current?.focus();
    };
    return listen<DocumentEventMap>(document, {
      pointerdown: onPointerDown,
      focusin: onFocusIn,
      keydown: onKeyDown,
    });
  }, [open, close, wrapper, button]);
}

/** Where a popup stands (above its button, right-aligned) and how it looks; add its width. */
export const POPUP_CLASS =
  'absolute bottom-full right-0 mb-2 rounded-lg border border-border bg-popover text-popover-foreground shadow-lg';

/**
 * A popup opened by an icon button (the volume, the queue, the share menu): its open state and
 * refs, `buttonProps` for the button and `panelProps` for the popup; closed by `useDismiss`.
 */
export function usePopup() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, wrapper, button);
  const buttonProps = {
    ref: button,
    'aria-expanded': open,
    'aria-controls': id,
    onClick: () => setOpen((o) => !o),
  };
  const panelProps = { id, hidden: !open };
  return { open, close, wrapper, button, buttonProps, panelProps };
}

/** Volume button with a popup slider 0..100, step 1. */
export function VolumeControl({
  volume,
  onChange,
}: {
  volume: number;
  onChange: (volume: number) => void;
}) {
  const popup = usePopup();
  const slider = useRef<HTMLInputElement>(null);
  const level = volumeLevel(volume);
  const Icon = level === 'high' ? Volume2 : level === 'low' ? Volume1 : VolumeX;

  useEffect(() => {
    if (popup.open) slider.current?.focus();
  }, [popup.open]);

  return (
    <div ref={popup.wrapper} className="relative">
      <IconButton {...popup.buttonProps} label="Volume" data-volume-level={level}>
        <Icon aria-hidden className="h-5 w-5" />
      </IconButton>
      <div {...popup.panelProps} className={cn(POPUP_CLASS, 'w-44 p-3')}>
        <input
          ref={slider}
          type="range"
          aria-label="Volume"
          aria-valuetext={`${Math.round(volume * 100)}%`}
          min={0}
          max={100}
          step={1}
          value={Math.round(volume * 100)}
          onChange={(e) => onChange(e.currentTarget.valueAsNumber / 100)}
          className="h-6 w-full cursor-pointer accent-primary"
        />
      </div>
    </div>
  );
}
