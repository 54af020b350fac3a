import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { noteWrite, startFreshness, stopFreshness } from './data-version.server';
import { builtValues } from './read-cache.server';

/** The read cache's built values (the feeds, the sitemap: decision 045), in `owned` mode. */
describe('builtValues', () => {
  beforeAll(() => startFreshness('owned'));
  afterAll(() => stopFreshness());

  it('builds once until a content write, and shares a build under way', async () => {
    const memo = builtValues<string>(2);
    let builds = 0;
    const make = async () => {
      builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return `built ${builds}`;
    };
    const [a, b] = await Promise.all([memo.get('k', make), memo.get('k', make)]);
    expect([a, b, builds]).toEqual(['built 1', 'built 1', 1]);
    expect(await memo.get('k', make)).toBe('built 1');
    // Not content (a background collection): nothing a feed shows changed.
    noteWrite(['sessions']);
    expect(await memo.get('k', make)).toBe('built 1');
    noteWrite(['tracks']);
    expect(await memo.get('k', make)).toBe('built 2');
  });

  it('does not keep a value whose build overlapped a write', async () => {
    const memo = builtValues<number>();
    let builds = 0;
    const first = memo.get('k', async () => {
      builds += 1;
      noteWrite(['tracks']);
      return builds;
    });
    expect(await first).toBe(1);
    expect(await memo.get('k', async () => ++builds)).toBe(2);
  });

  it('keeps at most maxEntries keys, least recently used out first', async () => {
    const memo = builtValues<string>(2);
    let builds = 0;
    const make = (v: string) => async () => {
      builds += 1;
      return v;
    };
    await memo.get('a', make('a'));
    await memo.get('b', make('b'));
    await memo.get('a', make('a'));
    await memo.get('c', make('c'));
    expect(builds).toBe(3);
    await memo.get('a', make('a'));
    expect(builds).toBe(3);
    await memo.get('b', make('b'));
    expect(builds).toBe(4);
  });
});
