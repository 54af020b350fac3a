import { UNSAFE_useScrollRestoration } from 'react-router-dom';

/** The sessionStorage key Remix's own <ScrollRestoration> uses (positions by history key). */
const STORAGE_KEY = 'positions';

/**
 * Restores a reloaded or revisited page's scroll position before hydration, as Remix's inline
 * script does, but reads sessionStorage only when the history entry already has a key: a page
 * opened by a link or typed address gets a new key, for which nothing can be stored. The first
 * sessionStorage read of a page is a synchronous round trip to the browser process, which is
 * busy fetching the page's resources at that moment: 10-50 ms of blocked main thread on every
 * first visit (measured in Lighthouse traces, decision 012).
 */
function restoreScroll(storageKey: string) {
  const state = window.history.state as { key?: string } | null;
  if (!state || !state.key) {
    window.history.replaceState({ key: Math.random().toString(32).slice(2) }, '');
    return;
  }
  try {
    const positions = JSON.parse(sessionStorage.getItem(storageKey) || '{}') as Record<
      string,
      unknown
    >;
    const storedY = positions[state.key];
    if (typeof storedY === 'number') window.scrollTo(0, storedY);
  } catch (error) {
    console.error(error);
    sessionStorage.removeItem(storageKey);
  }
}

const RESTORE_SCRIPT = `(${restoreScroll.toString()})(${JSON.stringify(STORAGE_KEY)})`;

/**
 * Remix's <ScrollRestoration> (client navigations restore and save positions through React
 * Router's hook; the server HTML carries the inline script) with the cheaper inline script above.
 */
export function ScrollRestoration({ nonce }: { nonce?: string }) {
  UNSAFE_useScrollRestoration({ storageKey: STORAGE_KEY });
  return (
    <script
      nonce={nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: RESTORE_SCRIPT }}
    />
  );
}
