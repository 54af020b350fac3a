import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { lowPriorityModulePreloads, lowPriorityModulePreloadsIn } from './html-rewrite.server';

const html =
  '<!DOCTYPE html><html><head><title>é ✓</title></head><body><p>rel=&quot;modulepreload&quot;</p>' +
  '<link rel="modulepreload" href="/build/a.js"/><link rel="modulepreload" href="/build/b.js"/>' +
  '<script type="module">import "/build/a.js";</script></body></html>';
const expected = html.replaceAll('rel="modulepreload"', 'rel="modulepreload" fetchpriority="low"');

async function through(chunks: Buffer[]): Promise<string> {
  return text(Readable.from(chunks).pipe(lowPriorityModulePreloads()));
}

describe('low-priority module preloads', () => {
  it('marks every modulepreload link, and nothing else', async () => {
    expect(lowPriorityModulePreloadsIn(html)).toBe(expected);
    expect(await through([Buffer.from(html)])).toBe(expected);
    expect(expected.match(/fetchpriority="low"/g)).toHaveLength(2);
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
