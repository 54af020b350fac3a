import { type MutableRefObject, useEffect } from 'react';

import type { QueueActions } from './player-actions';
import type { PlayerState } from './player-machine';

/** Fields where the keyboard shortcuts must not apply (typing, selecting). */
function isEditable(el: Element | null): boolean {
  if (!el || !(el instanceof HTMLElement)) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true;
  const role = el.getAttribute('role');
  return role === 'textbox' || role === 'combobox' || role === 'searchbox';
}

/** Controls that Space already activates. */
function isSpaceActivated(el: Element | null): boolean {
  if (!el || !(el instanceof HTMLElement)) return false;
  if (el.closest('button, a[href], summary, [role="button"], [role="link"]')) return true;
  const role = el.getAttribute('role');
  return !!role && /^(checkbox|switch|menuitem\w*|tab|option|radio|slider|spinbutton)$/.test(role);
}

/**
 * Keyboard: Space toggles, Ctrl/Cmd + Right next, Ctrl/Cmd + Left previous, while a track is
 * current and the focus is not in a field (or, for Space, on a control Space activates).
 */
export function usePlayerKeyboard(actions: QueueActions, stateRef: MutableRefObject<PlayerState>) {
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.isComposing) return;
      const target = e.target instanceof Element ? e.target : document.activeElement;
      if (isEditable(target) || isEditable(document.activeElement)) return;
      const mod = e.ctrlKey || e.metaKey;
      if ((e.key === ' ' || e.code === 'Space') && !mod && !e.shiftKey) {
        if (isSpaceActivated(target)) return;
        if (!stateRef.current.current) return;
        e.preventDefault();
        if (!e.repeat) actions.toggle();
      } else if (mod && !e.shiftKey && e.key === 'ArrowRight') {
        if (!stateRef.current.current) return;
        e.preventDefault();
        actions.next();
      } else if (mod && !e.shiftKey && e.key === 'ArrowLeft') {
        if (!stateRef.current.current) return;
        e.preventDefault();
        actions.prev();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [actions, stateRef]);
}
