import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';

import { describe, expect, it } from 'vitest';

import { deferScripts, deferScriptsIn } from './html-rewrite.server';

const html =
  '<!DOCTYPE html><html><head><title>é ✓</title>' +
  '<script type="application/ld+json">{"@type":"MusicGroup"}</script></head><body>' +
  '<p>rel=&quot;modulepreload&quot; type=&quot;module&quot; async=&quot;&quot;</p>' +
  '<link rel="modulepreload" href="/build/a.js"/><link rel="modulepreload" href="/build/b.js"/>' +
  '<script nonce="abc" type="module" async="">import "/build/a.js";</script></body></html>';
const expected = html
  .replaceAll('rel="modulepreload"', 'rel="x-deferred-modulepreload"')
  .replace(' type="module" async=""', ' type="x-deferred-module" async=""');

async function through(chunks: Buffer[]): Promise<string> {
  return text(Readable.from(chunks).pipe(deferScripts()));
}

describe('deferred scripts', () => {
  it('renames the module preloads and the module script, and nothing else', async () => {
    expect(deferScriptsIn(html)).toBe(expected);
    expect(await through([Buffer.from(html)])).toBe(expected);
    expect(expected.match(/x-deferred-modulepreload/g)).toHaveLength(2);
    expect(expected.match(/x-deferred-module"/g)).toHaveLength(1);
    // Escaped text and the JSON-LD script are left as they are.
    expect(expected).toContain('<p>rel=&quot;modulepreload&quot; type=&quot;module&quot;');
    expect(expected).toContain('<script type="application/ld+json">');
    expect(deferScriptsIn(expected)).toBe(expected);
  });

  it('handles tags and multi-byte characters split across chunks at any point', async () => {
    const bytes = Buffer.from(html);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(expected);
    }
    const singles = Array.from(bytes, (b) => Buffer.from([b]));
    expect(await through(singles)).toBe(expected);
  });
});
