// The sorted entries of an index: [value of each key field..., record sequence, record id,
// record],
// kept in chunks of at most MAX_CHUNK entries so that an insert or a delete anywhere moves at
// most a chunk (a splice of one flat array of 500,000 entries would move them all), while
// positions (skip, counts) stay cheap: each chunk's first position is a running sum.
import { compareValues } from './values';

export type Entry = unknown[];

const MAX_CHUNK = 1024;

/** compareValues with fast paths for the key types lists sort on (numbers, strings, dates). */
export function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number' && a === a && b === b)
    return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Date && b instanceof Date) {
    const x = a.getTime();
    const y = b.getTime();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return compareValues(a, b);
}

export class SortedKeys {
  private chunks: Entry[][] = [];
  /** The position of each chunk's first entry; null when a write made it stale. */
  private starts: number[] | null = null;
  size = 0;
  /** Counts inserts and removals: a reader that keeps positions between reads checks it. */
  version = 0;

  /** `sorted`: entries already in `cmp` order. */
  constructor(
    sorted: Entry[],
    readonly cmp: (a: Entry, b: Entry) => number,
  ) {
    const half = MAX_CHUNK / 2;
    for (let i = 0; i < sorted.length; i += half) this.chunks.push(sorted.slice(i, i + half));
    this.size = sorted.length;
  }

  /** The chunk where `e` belongs: the first whose last entry is >= e (else the last one). */
  private chunkFor(e: Entry): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.chunks[mid];
      if (this.cmp(c[c.length - 1], e) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index in `chunk` whose entry is >= e (> e when `after`). */
  private within(chunk: Entry[], e: Entry, after: boolean): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.cmp(chunk[mid], e);
      if (c < 0 || (after && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(e: Entry): void {
    this.starts = null;
    this.size++;
    this.version++;
    if (this.chunks.length === 0) {
      this.chunks.push([e]);
      return;
    }
    const ci = this.chunkFor(e);
    const chunk = this.chunks[ci];
    chunk.splice(this.within(chunk, e, true), 0, e);
    if (chunk.length > MAX_CHUNK) this.chunks.splice(ci + 1, 0, chunk.splice(MAX_CHUNK / 2));
  }

  /** Removes the entry equal to `e` (same values and sequence); false if there is none. */
  remove(e: Entry): boolean {
    if (this.chunks.length === 0) return false;
    const ci = this.chunkFor(e);
    const chunk = this.chunks[ci];
    const i = this.within(chunk, e, false);
    if (i >= chunk.length || this.cmp(chunk[i], e) !== 0) return false;
    chunk.splice(i, 1);
    if (chunk.length === 0) this.chunks.splice(ci, 1);
    this.starts = null;
    this.size--;
    this.version++;
    return true;
  }

  private chunkStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = new Array<number>(this.chunks.length);
    let pos = 0;
    for (let i = 0; i < this.chunks.length; i++) {
      starts[i] = pos;
      pos += this.chunks[i].length;
    }
    return (this.starts = starts);
  }

  /** The chunk holding position `pos` (0 <= pos < size). */
  private chunkAt(pos: number): number {
    const starts = this.chunkStarts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * The first position in [from, to) whose entry is not `before` (a predicate true for a
   * leading run of entries and false after it), or `to`.
   */
  bound(before: (e: Entry) => boolean, from = 0, to = this.size): number {
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.at(mid))) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The chunk holding position `pos` (0 <= pos < size) and the offset of `pos` in it: a reader
   * walks the chunk's array from there while `version` stays the same (a lazy cursor).
   */
  locate(pos: number): { chunk: readonly Entry[]; offset: number } {
    const ci = this.chunkAt(pos);
    return { chunk: this.chunks[ci], offset: pos - this.chunkStarts()[ci] };
  }

  at(pos: number): Entry {
    const ci = this.chunkAt(pos);
    return this.chunks[ci][pos - this.chunkStarts()[ci]];
  }

  /**
   * Calls `fn` on the entries of [from, to), forward or backward, until it returns false.
   * Returns the number of entries visited.
   */
  walk(from: number, to: number, forward: boolean, fn: (e: Entry) => boolean): number {
    if (from >= to) return 0;
    const starts = this.chunkStarts();
    let visited = 0;
    if (forward) {
      let ci = this.chunkAt(from);
      let off = from - starts[ci];
      for (let pos = from; pos < to; ci++, off = 0) {
        const chunk = this.chunks[ci];
        for (; off < chunk.length && pos < to; off++, pos++) {
          visited++;
          if (!fn(chunk[off])) return visited;
        }
      }
    } else {
      let ci = this.chunkAt(to - 1);
      let off = to - 1 - starts[ci];
      for (let pos = to - 1; pos >= from;) {
        const chunk = this.chunks[ci];
        for (; off >= 0 && pos >= from; off--, pos--) {
          visited++;
          if (!fn(chunk[off])) return visited;
        }
        ci--;
        if (ci >= 0) off = this.chunks[ci].length - 1;
      }
    }
    return visited;
  }
}
