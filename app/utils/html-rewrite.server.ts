import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';

const MODULE_PRELOAD = 'rel="modulepreload"';
const LOW_PRIORITY_PRELOAD = `${MODULE_PRELOAD} fetchpriority="low"`;

/**
 * The page HTML with `fetchpriority="low"` on Remix's `<link rel="modulepreload">` tags.
 *
 * The pages are server-rendered and work without JavaScript: the scripts only hydrate them. At
 * their default (high) priority, 25–35 module preloads compete with the page's main image and
 * fonts for the first round trips; at low priority the browser fetches them right after what
 * the first paint needs (Lighthouse: the scripts no longer delay First/Largest Contentful
 * Paint). They are still preloaded in parallel, so hydration does not wait on an import
 * waterfall.
 *
 * `<Scripts>` renders these links only in the server HTML (they are gone after hydration), and
 * an extra attribute in server HTML does not disturb React's hydration. The attribute text
 * cannot occur elsewhere in the document: React escapes quotes in text and attribute values.
 * A tag split across two chunks is handled by holding back the last few characters.
 */
export function lowPriorityModulePreloads(): Transform {
  const decoder = new StringDecoder('utf8');
  const keep = MODULE_PRELOAD.length - 1;
  let carry = '';
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
      const rewritten = text.replaceAll(MODULE_PRELOAD, LOW_PRIORITY_PRELOAD);
      // Hold back a tail that could be the start of the pattern (shorter than the pattern, so
      // it never holds a whole one that the next round would rewrite twice).
      const cut = Math.max(0, rewritten.length - keep);
      carry = rewritten.slice(cut);
      callback(null, rewritten.slice(0, cut));
    },
    flush(callback) {
      const rest = carry + decoder.end();
      callback(null, rest.replaceAll(MODULE_PRELOAD, LOW_PRIORITY_PRELOAD));
    },
  });
}

/** The same rewrite for a whole document. */
export function lowPriorityModulePreloadsIn(html: string): string {
  return html.replaceAll(MODULE_PRELOAD, LOW_PRIORITY_PRELOAD);
}
