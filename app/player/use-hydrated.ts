import { useEffect, useState } from 'react';

let hydrating = true;

/**
 * False during the server render and the hydration pass, true afterwards (and at once for
 * components mounted after hydration), so server HTML can hold no-JS fallbacks that the
 * client swaps for interactive controls without a hydration mismatch.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(() => !hydrating);
  useEffect(() => {
    hydrating = false;
    setHydrated(true);
  }, []);
  return hydrated;
}
