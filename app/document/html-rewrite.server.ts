import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * The rewrites that hold Remix's scripts back until the page has loaded (decision 012).
 *
 * Remix's `<Scripts>` renders a `<link rel="modulepreload">` per module of the page and one
 * `<script type="module">` that imports them and starts hydration. Renamed, the browser
 * ignores both while the page loads; `<DeferredHydration>` (app/components/site/
 * deferred-hydration.tsx) renames the links back and runs the script once the `load` event
 * has fired. The texts cannot occur elsewhere in the document: React escapes quotes in text
 * and attribute values, and the JSON-LD scripts have their own type.
 *
 * `<Scripts>` renders these tags only in the server HTML, and React's hydration does not
 * compare attribute values, so the renamed attributes do not disturb it.
 */
const REWRITES: readonly (readonly [string, string])[] = [
  ['rel="modulepreload"', 'rel="x-deferred-modulepreload"'],
  [' type="module" async=""', ' type="x-deferred-module" async=""'],
];

/** Enough characters to hold back so that no pattern is missed across two chunks. */
const KEEP = Math.max(...REWRITES.map(([from]) => from.length)) - 1;

/** The rewrites applied to a whole document (no rewritten text contains a pattern again). */
export function deferScriptsIn(html: string): string {
  let out = html;
  for (const [from, to] of REWRITES) out = out.replaceAll(from, to);
  return out;
}

/** The same rewrites for a streamed document: a tag split across chunks is handled too. */
export function deferScripts(): Transform {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const text = deferScriptsIn(
        carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk)),
      );
      // Hold back a tail that could be the start of a pattern. Rewriting is idempotent (no
      // replacement contains a pattern), so a tail that holds rewritten text is safe too.
      const cut = Math.max(0, text.length - KEEP);
      carry = text.slice(cut);
      callback(null, text.slice(0, cut));
    },
    flush(callback) {
      callback(null, deferScriptsIn(carry + decoder.end()));
    },
  });
}
