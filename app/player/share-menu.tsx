import { Link } from '@remix-run/react';
import { useEffect } from 'react';

import { Share2 } from '~/components/site/icons';
import { cn } from '~/utils/cn';
import { deepLinkTime } from '~/utils/media-time';

import { IconButton, POPUP_CLASS, usePopup } from './player-controls';
import { useStatusMessage } from './use-status-message';

/**
 * "Share": a menu for the track playing (keyboard: arrows move, Escape closes and gives focus
 * back). "Share / embed" opens the track page's share dialog (its code loads with that route,
 * never with the bar: decision 027's budget; the bar loads this
 * module itself with its first track); "Copy link at current time" copies `?t=`.
 */
export function ShareMenu({ id, position }: { id: number; position: number }) {
  const [status, say] = useStatusMessage();
  const { open, close, wrapper, button, buttonProps, panelProps } = usePopup();
  useEffect(() => {
    if (open) wrapper.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [open, wrapper]);
  const t = position >= 1 ? `?t=${deepLinkTime(position)}` : '';
  const copy = async () => {
    const url = `${window.location.origin}/music/${id}${t}`;
    close();
    button.current?.focus();
    say(
      await navigator.clipboard.writeText(url).then(
        () => 'Link copied',
        () => `Copy: ${url}`,
      ),
    );
  };
  const item = 'flex min-h-10 w-full items-center px-3 text-left text-sm hover:bg-muted';
  return (
    <div ref={wrapper} className="relative">
      <IconButton {...buttonProps} label="Share" aria-haspopup="menu">
        <Share2 aria-hidden className="h-5 w-5" />
      </IconButton>
      <div
        {...panelProps}
        role="menu"
        tabIndex={-1}
        aria-label="Share"
        onKeyDown={(e) => {
          const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role=menuitem]')];
          const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
          if (!step) return;
          e.preventDefault();
          const at = items.indexOf(document.activeElement as HTMLElement);
          items[(at + step + items.length) % items.length]?.focus();
        }}
        className={cn(POPUP_CLASS, 'w-60 py-1')}
      >
        <Link role="menuitem" to={`/music/${id}/share${t}`} onClick={close} className={item}>
          Share / embed
        </Link>
        <button type="button" role="menuitem" onClick={copy} className={item}>
          Copy link at current time
        </button>
      </div>
      <span role="status" className="absolute bottom-full right-0 whitespace-nowrap text-xs">
        {status}
      </span>
    </div>
  );
}
