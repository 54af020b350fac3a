import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
} from 'react';

/** One flag for the whole page, flipped once after the first hydration (not one state per component). */
const HydratedContext = createContext(false);

/**
 * False during the server render and the hydration pass, true afterwards (and at once for
 * components mounted after hydration), so server HTML can hold no-JS fallbacks that the
 * client swaps for interactive controls without a hydration mismatch. All readers swap in
 * the same commit: the flag is flipped once, by `HydratedProvider` in the document.
 */
export function useHydrated(): boolean {
  return useContext(HydratedContext);
}

/**
 * Wrap the whole document once: its effect runs after every child's, i.e. once the page has
 * hydrated, and flips the flag in a transition. The swap re-renders every reader (on /music,
 * 24 cards trade their `<audio>` for the player's buttons): as a transition React renders it
 * in slices of a few ms, where a synchronous update was one task of 60 ms (250 on Lighthouse's
 * slowed phone). `onHydrated` runs once the swap is committed.
 */
export function HydratedProvider({
  children,
  onHydrated,
}: {
  children: ReactNode;
  onHydrated?: () => void;
}) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    startTransition(() => setHydrated(true));
  }, []);
  useEffect(() => {
    if (hydrated) onHydrated?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the flag flips
  }, [hydrated]);
  return <HydratedContext.Provider value={hydrated}>{children}</HydratedContext.Provider>;
}
