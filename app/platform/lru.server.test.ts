import { describe, expect, it } from 'vitest';

import { Lru } from './lru.server';

describe('Lru (the one least-recently-used map)', () => {
  it('evicts the least recently used past maxEntries; a get makes an entry the most recent', () => {
    const lru = new Lru<string, number>({ maxEntries: 3 });
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1);
    lru.set('d', 4);
    expect([...lru.entries()].map(([k]) => k)).toEqual(['c', 'a', 'd']);
    expect(lru.has('b')).toBe(false);
    expect(lru.size).toBe(3);
  });

  it('peek leaves the order alone; set of a held key replaces it as the most recent', () => {
    const lru = new Lru<string, number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.peek('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.has('a')).toBe(false);
    lru.set('b', 20);
    lru.set('d', 4);
    expect([...lru.entries()]).toEqual([
      ['b', 20],
      ['d', 4],
    ]);
  });

  it('bounds the total size too, and refuses a value larger than the bound on its own', () => {
    const lru = new Lru<string, string>({
      maxEntries: 100,
      maxSize: 10,
      sizeOf: (v) => v.length,
    });
    expect(lru.set('a', 'xxxx')).toBe(true);
    expect(lru.set('b', 'xxxx')).toBe(true);
    expect(lru.totalSize).toBe(8);
    expect(lru.set('c', 'xxxx')).toBe(true);
    expect([...lru.entries()].map(([k]) => k)).toEqual(['b', 'c']);
    expect(lru.totalSize).toBe(8);
    expect(lru.set('b', 'x'.repeat(11))).toBe(false);
    expect(lru.has('b')).toBe(false);
    expect(lru.totalSize).toBe(4);
    expect(lru.delete('c')).toBe(true);
    expect(lru.delete('c')).toBe(false);
    expect(lru.totalSize).toBe(0);
  });

  it('reads a size bound given as a function at each insertion', () => {
    let budget = 10;
    const lru = new Lru<string, string>({
      maxEntries: 100,
      maxSize: () => budget,
      sizeOf: (v) => v.length,
    });
    lru.set('a', 'xxxx');
    lru.set('b', 'xxxx');
    budget = 5;
    lru.set('c', 'x');
    expect([...lru.entries()].map(([k]) => k)).toEqual(['b', 'c']);
  });

  it('may be emptied, and deleted from while iterating', () => {
    const lru = new Lru<number, number>({ maxEntries: 10, sizeOf: () => 1 });
    for (let i = 0; i < 6; i++) lru.set(i, i);
    for (const [key, value] of lru.entries()) if (value % 2 === 0) lru.delete(key);
    expect([...lru.entries()].map(([k]) => k)).toEqual([1, 3, 5]);
    expect(lru.totalSize).toBe(3);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.totalSize).toBe(0);
  });
});
