import { Link } from '@remix-run/react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';

import { Share2 } from '~/components/site/icons';
import { deepLinkTime } from '~/utils/media-time';

import { IconButton, useDismiss } from './player-controls';
import { useStatusMessage } from './use-status-message';

/**
 * "Share": a menu for the track playing (keyboard: arrows move, Escape closes and gives focus
 * back). "Share / embed" opens the track page's share dialog (its code loads with that route,
 * never with the bar: decision 027's budget; the bar loads this
 * module itself with its first track); "Copy link at current time" copies `?t=`.
 */
export function ShareMenu({ id, position }: { id: number; position: number }) {
  const [open, setOpen] = useState(false);
  const [status, say] = useStatusMessage();
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, wrapper, button);
  useEffect(() => {
    if (open) wrapper.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [open]);
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
      <IconButton
        ref={button}
        label="Share"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
      >
        <Share2 aria-hidden className="h-5 w-5" />
      </IconButton>
      <div
        id={menuId}
        role="menu"
        tabIndex={-1}
        aria-label="Share"
        hidden={!open}
        onKeyDown={(e) => {
          const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role=menuitem]')];
          const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
          if (!step) return;
          e.preventDefault();
          const at = items.indexOf(document.activeElement as HTMLElement);
          items[(at + step + items.length) % items.length]?.focus();
        }}
        className="absolute bottom-full right-0 mb-2 w-60 rounded-lg border border-border bg-popover py-1 text-popover-foreground shadow-lg"
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
