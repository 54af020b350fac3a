/**
 * The one least-recently-used map of the server (docs/caching.md): every bounded in-memory cache
 * (the page cache, the read cache and its built values, the GridFS chunks, image facts, covers)
 * keeps its entries in one of these instead of a `Map` with its own eviction loop.
 *
 * A `Map` keeps insertion order, so the first key is the least recently used one when a hit
 * moves its entry to the end (`get`). Two bounds: a number of entries, and optionally a total
 * size (`sizeOf` each value; `maxSize` a number, or a function read at each insertion, for a
 * budget computed late). Inserting evicts from the least recently used end until both hold; a
 * value larger than `maxSize` on its own is not kept (`set` answers false).
 */
export type LruOptions<K, V> = {
  maxEntries: number;
  /** The bound on the sum of `sizeOf` (default: none). */
  maxSize?: number | (() => number);
  /** A value's size (default: 0, only the number of entries bounds the map). */
  sizeOf?: (value: V, key: K) => number;
};

export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; size: number }>();
  private total = 0;

  constructor(private readonly options: LruOptions<K, V>) {}

  /** The value for `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /** The value for `key`, its place in the order unchanged. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /**
   * Keep `value` under `key` as the most recently used, evicting the least recently used until
   * both bounds hold. False (and `key` no longer held) when the value alone exceeds `maxSize`.
   */
  set(key: K, value: V): boolean {
    this.delete(key);
    const size = this.options.sizeOf?.(value, key) ?? 0;
    const maxSize = this.maxSize();
    if (size > maxSize || this.options.maxEntries < 1) return false;
    for (const oldest of this.map.keys()) {
      if (this.map.size < this.options.maxEntries && this.total + size <= maxSize) break;
      this.delete(oldest);
    }
    this.map.set(key, { value, size });
    this.total += size;
    return true;
  }

  delete(key: K): boolean {
    const entry = this.map.get(key);
    if (!entry) return false;
    this.map.delete(key);
    this.total -= entry.size;
    return true;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** The sum of the values' sizes. */
  get totalSize(): number {
    return this.total;
  }

  /** Entries from the least to the most recently used (deleting while iterating is safe). */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, entry] of this.map) yield [key, entry.value];
  }

  private maxSize(): number {
    const bound = this.options.maxSize;
    if (bound === undefined) return Number.POSITIVE_INFINITY;
    return typeof bound === 'number' ? bound : bound();
  }
}
