import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';

import { X } from '~/components/site/icons';
import { useHydrated } from '~/player/use-hydrated';
import type { ToastInput, ToastMessage } from '~/types/toast';
import { cn } from '~/utils/cn';

/** How long a toast stays on screen unless dismissed: 5 seconds. */
export const TOAST_DURATION_MS = 5000;

// A tiny store for toasts raised in the browser (e.g. 'Link copied', action errors).
// Only one toast is visible at a time: a new one replaces the current one.
let current: ToastMessage | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Show a toast from client code (event handlers, effects). */
export function showToast(input: ToastInput): ToastMessage {
  // ToastSchema's defaults, written out: the toaster is in every page's bundle, zod is not.
  current = {
    id: input.id ?? Math.random().toString(36).slice(2),
    type: input.type ?? 'success',
    title: input.title,
    description: input.description,
  };
  emit();
  return current;
}

export function dismissToast(id?: string) {
  if (!current || (id && current.id !== id)) return;
  current = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Shows `toast` once (by id) when it appears, e.g. an error toast returned by an action. */
export function useToastOnce(toast: ToastInput | null | undefined) {
  const shown = useRef<string | null>(null);
  const key = toast ? (toast.id ?? `${toast.title}|${toast.description ?? ''}`) : null;
  useEffect(() => {
    if (!toast || !key || shown.current === key) return;
    shown.current = key;
    showToast(toast);
  }, [key, toast]);
}

/**
 * The toast region. `flash` is the root loader's flash toast: it is rendered in the server
 * HTML (so it shows without JavaScript, with a CSS-only dismiss button) and then handed to
 * the client store. F8 focuses the region.
 */
export function Toaster({ flash }: { flash: ToastMessage | null }) {
  const storeToast = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  const [flashDismissed, setFlashDismissed] = useState<string | null>(null);
  const lastFlash = useRef<string | null>(null);
  const regionRef = useRef<HTMLElement>(null);

  // A new flash toast (after a redirect) goes through the store like any other.
  useEffect(() => {
    if (!flash || lastFlash.current === flash.id) return;
    lastFlash.current = flash.id;
    showToast(flash);
  }, [flash]);

  const visible: ToastMessage | null =
    storeToast ??
    (flash && flashDismissed !== flash.id && lastFlash.current !== flash.id ? flash : null);

  const dismiss = useCallback(() => {
    if (!visible) return;
    if (flash && visible.id === flash.id) setFlashDismissed(flash.id);
    dismissToast(visible.id);
  }, [visible, flash]);

  useEffect(() => {
    if (!storeToast) return;
    const timer = window.setTimeout(() => dismissToast(storeToast.id), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [storeToast]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section
      ref={regionRef}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className="pointer-events-none fixed inset-x-0 top-20 z-[60] flex justify-center px-4 outline-none sm:inset-x-auto sm:right-4 sm:justify-end"
    >
      <div role="status" aria-live="polite" aria-atomic="true" className="w-full max-w-sm">
        {visible ? <ToastCard key={visible.id} toast={visible} onDismiss={dismiss} /> : null}
      </div>
    </section>
  );
}

function ToastCard({ toast, onDismiss }: { toast: ToastMessage; onDismiss: () => void }) {
  const hydrated = useHydrated();
  return (
    <div
      data-testid="toast"
      data-type={toast.type}
      className={cn(
        'pointer-events-auto relative rounded-lg border p-4 pr-12 shadow-lg has-[:checked]:hidden',
        toast.type === 'error'
          ? 'border-destructive bg-destructive text-destructive-foreground'
          : 'border-border bg-card text-card-foreground',
      )}
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="mt-1 text-sm opacity-90">{toast.description}</p> : null}
      {hydrated ? (
        <button
          type="button"
          onClick={onDismiss}
          className="absolute right-2 top-2 inline-flex h-8 w-8 items-center justify-center rounded-md opacity-80 hover:opacity-100"
        >
          <X aria-hidden="true" className="h-4 w-4" />
          <span className="sr-only">Dismiss notification</span>
        </button>
      ) : (
        // Without JavaScript: a CSS-only dismiss (the card hides when the box is checked).
        <span className="absolute right-2 top-2 inline-flex h-8 w-8">
          <input
            type="checkbox"
            aria-label="Dismiss notification"
            className="peer h-8 w-8 cursor-pointer appearance-none rounded-md"
          />
          <X
            aria-hidden="true"
            className="pointer-events-none absolute left-2 top-2 h-4 w-4 opacity-80"
          />
        </span>
      )}
    </div>
  );
}
