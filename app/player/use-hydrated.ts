import { useEffect, useSyncExternalStore } from 'react';

/** One flag for the whole page, flipped once after the first hydration (not one state per component). */
let hydrated = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * False during the server render and the hydration pass, true afterwards (and at once for
 * components mounted after hydration), so server HTML can hold no-JS fallbacks that the
 * client swaps for interactive controls without a hydration mismatch. All readers swap in
 * the same commit: the flag is flipped once, by `useMarkHydrated` in the document.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => hydrated,
    () => false,
  );
}

/**
 * Mount once, at the top of the tree (the root document): its effect runs after every
 * child's, i.e. once the page has hydrated, and flips the shared flag.
 */
export function useMarkHydrated(): void {
  useEffect(() => {
    if (hydrated) return;
    hydrated = true;
    for (const listener of listeners) listener();
  }, []);
}
