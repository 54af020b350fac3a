/**
 * Starts Remix's scripts once the page has loaded (decision 012). The server HTML renames
 * Remix's module preloads and its module script (app/document/html-rewrite.server.ts) so the
 * browser spends the first round trips on what the visitor sees (the document, the main image,
 * the fonts), not on ~30 script modules that only hydrate a page that already works without
 * them. On `load`, this renames the preloads back (the modules download in parallel) and runs
 * a copy of the module script, which imports them and hydrates the page.
 *
 * The copy is appended at the end of <body>, where React's hydration ignores extra nodes; the
 * renamed original stays where React expects it.
 */
function startDeferredScripts(preloadsPerTask: number) {
  function start() {
    const links = Array.from(
      document.querySelectorAll<HTMLLinkElement>('link[rel="x-deferred-modulepreload"]'),
    );
    // A few renames a task: each starts a module fetch, about 1 ms of the main thread (4 on a
    // slow phone), and the 36 of /music at once were one task of 100 ms on Lighthouse's phone.
    const preloadSome = () => {
      for (const link of links.splice(0, preloadsPerTask)) link.rel = 'modulepreload';
      if (links.length > 0) setTimeout(preloadSome, 0);
    };
    preloadSome();
    const deferred = document.querySelector<HTMLScriptElement>('script[type="x-deferred-module"]');
    if (!deferred) return;
    deferred.type = 'x-started-module';
    const script = document.createElement('script');
    script.type = 'module';
    script.nonce = deferred.nonce;
    script.textContent = deferred.textContent;
    document.body.appendChild(script);
  }
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

/** Module preloads started per task (the rest follow in the next tasks, a few ms apart). */
const PRELOADS_PER_TASK = 6;

const SCRIPT = `(${startDeferredScripts.toString()})(${PRELOADS_PER_TASK})`;

/** Render once, before Remix's <Scripts>. */
export function DeferredHydration({ nonce }: { nonce?: string }) {
  return (
    <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SCRIPT }} />
  );
}
