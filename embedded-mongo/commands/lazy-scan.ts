// A find's matching records produced as its cursor is read (first batch, then each getMore),
// not all at once: a stream over 500,000 records holds a batch, not the collection. The walk
// keeps its place between reads; when writes moved the index's entries meanwhile, it finds its
// place again just after the last entry it read (the entries' order is total: key values, then
// insertion sequence), so records inserted ahead of it are read, removed ones are not, and none
// is read twice unless an update moved it ahead (as in MongoDB, a cursor is not a snapshot).
import type { Collection, Index, Rec } from '../engine';
import { MongoError } from '../errors';
import { choosePlan, type IndexPlan, replanIndex } from '../planner';
import type { Entry, SortedKeys } from '../sorted-keys';
import type { Doc } from '../values';
import type { Tester } from './scan';

/** What a lazy find reads: the collection and whether it is still the store's. */
export interface LazyTarget {
  coll: Collection;
  /** False once the collection was dropped (or replaced) since the cursor was opened. */
  live(): boolean;
  /** Counts the documents examined (serverStatus `metrics.queryExecutor.scannedObjects`). */
  stats?: { scannedObjects: number };
}

type Found = [string, Rec];

function planKilled(why: string): MongoError {
  return new MongoError(175, 'QueryPlanKilled', `query plan killed :: caused by :: ${why}`);
}

/**
 * The matching records of a find in its sort order, skip and limit applied, produced one at a
 * time; null when the order needs an in-memory sort of every match (a blocking sort, as in
 * MongoDB) or a merge of several index slices: the caller reads those at once.
 */
export function openLazyFind(
  target: LazyTarget,
  filter: Doc,
  q: Tester | null,
  sort: Doc | undefined,
  skip: number,
  limit: number,
): Iterator<Found> | null {
  const { coll } = target;
  const sorts = !!sort && Object.keys(sort).length > 0;
  const plan = choosePlan(coll, filter, sort, limit ? skip + limit : 0);
  if (plan.kind === 'index') {
    if (sorts && (!plan.sorted || plan.slices.length > 1)) return null;
    return walkIndex(target, plan, filter, sort, q, skip, limit);
  }
  if (sorts) return null;
  if (plan.kind === 'ids') return byIds(target, plan.ids, q, skip, limit);
  return scanRecords(target, q, skip, limit);
}

/** Counts the skip, then the limit, over the records that match. */
class Window {
  private toSkip: number;
  private left: number;
  constructor(skip: number, limit: number) {
    this.toSkip = skip;
    this.left = limit > 0 ? limit : Infinity;
  }
  /** Whether a match is returned (false: skipped). */
  take(): boolean {
    if (this.toSkip > 0) {
      this.toSkip--;
      return false;
    }
    this.left--;
    return true;
  }
  get full(): boolean {
    return this.left <= 0;
  }
  /** Skips `n` matches at once (exact plans); returns how many remain to skip. */
  jump(n: number): number {
    const used = Math.min(n, this.toSkip);
    this.toSkip -= used;
    return used;
  }
  get skipping(): number {
    return this.toSkip;
  }
}

function* scanRecords(target: LazyTarget, q: Tester | null, skip: number, limit: number) {
  const win = new Window(skip, limit);
  // A Map's iterator stays valid through writes: it visits records added meanwhile and skips
  // removed ones.
  const stats = target.stats ?? { scannedObjects: 0 };
  for (const [id, rec] of target.coll.records) {
    stats.scannedObjects++;
    if (q && !q.test(rec.doc)) continue;
    if (!win.take()) continue;
    yield [id, rec] as Found;
    if (win.full) return;
    if (!target.live()) throw planKilled('collection dropped');
  }
}

function* byIds(
  target: LazyTarget,
  ids: readonly string[],
  q: Tester | null,
  skip: number,
  limit: number,
) {
  const win = new Window(skip, limit);
  const stats = target.stats ?? { scannedObjects: 0 };
  for (const id of ids) {
    const rec = target.coll.records.get(id);
    if (rec) stats.scannedObjects++;
    if (!rec || (q && !q.test(rec.doc))) continue;
    if (!win.take()) continue;
    yield [id, rec] as Found;
    if (win.full) return;
    if (!target.live()) throw planKilled('collection dropped');
  }
}

/** Where a walk stands: the slice, the position in the entries, and the chunk being read. */
interface Place {
  keys: SortedKeys;
  version: number;
  slices: [number, number][];
  slice: number;
  pos: number;
  chunk: readonly Entry[] | null;
  offset: number;
}

function* walkIndex(
  target: LazyTarget,
  first: IndexPlan,
  filter: Doc,
  sort: Doc | undefined,
  q: Tester | null,
  skip: number,
  limit: number,
) {
  const { ix, forward, exact } = first;
  const step = forward ? 1 : -1;
  const win = new Window(skip, limit);
  const stats = target.stats ?? { scannedObjects: 0 };
  const startOf = ([from, to]: [number, number]) => (forward ? from : to - 1);
  const place: Place = {
    keys: first.keys!,
    version: first.keys!.version,
    slices: first.slices,
    slice: 0,
    pos: first.slices.length ? startOf(first.slices[0]) : 0,
    chunk: null,
    offset: 0,
  };
  // An exact plan's slices are the matches: the skip jumps over entries without reading them.
  if (exact) {
    while (win.skipping > 0 && place.slice < place.slices.length) {
      const [from, to] = place.slices[place.slice];
      const used = win.jump(forward ? to - place.pos : place.pos - from + 1);
      place.pos += used * step;
      if (forward ? place.pos >= to : place.pos < from) {
        place.slice++;
        if (place.slice < place.slices.length) place.pos = startOf(place.slices[place.slice]);
      }
    }
  }
  let last: Entry | null = null;
  for (;;) {
    if (place.keys.version !== place.version)
      relocate(target, ix, place, filter, sort, forward, last);
    if (place.slice >= place.slices.length) return;
    const [from, to] = place.slices[place.slice];
    if (forward ? place.pos >= to : place.pos < from) {
      place.slice++;
      place.chunk = null;
      if (place.slice < place.slices.length) place.pos = startOf(place.slices[place.slice]);
      continue;
    }
    if (!place.chunk || place.offset < 0 || place.offset >= place.chunk.length) {
      const at = place.keys.locate(place.pos);
      place.chunk = at.chunk;
      place.offset = at.offset;
    }
    const e = place.chunk[place.offset];
    place.offset += step;
    place.pos += step;
    last = e;
    stats.scannedObjects++;
    const rec = e[e.length - 1] as Rec;
    if (!exact && q && !q.test(rec.doc)) continue;
    if (!win.take()) continue;
    yield [e[e.length - 2] as string, rec] as Found;
    if (win.full) return;
    // Other commands may have run since the yield: the store may have rebuilt the entries.
    if (!sameIndex(target, ix, place.keys))
      relocate(target, ix, place, filter, sort, forward, last);
  }
}

/** Whether the walk still reads the index's current entries (the store may have rebuilt them). */
function sameIndex(target: LazyTarget, ix: Index, keys: SortedKeys): boolean {
  return target.live() && target.coll.indexes.includes(ix) && ix.hasSortedKeys && ix.orderable
    ? ix.sortedKeys(target.coll.records) === keys
    : false;
}

/**
 * Writes moved the entries since the last read: the slices again from the same bounds, and the
 * place just after `last` (the first slice's start when nothing was read yet).
 */
function relocate(
  target: LazyTarget,
  ix: Index,
  place: Place,
  filter: Doc,
  sort: Doc | undefined,
  forward: boolean,
  last: Entry | null,
): void {
  if (!target.live()) throw planKilled('collection dropped');
  if (!target.coll.indexes.includes(ix)) throw planKilled(`index '${ix.name}' dropped`);
  const plan = replanIndex(target.coll, ix, filter, sort);
  if (!plan?.keys || plan.forward !== forward) {
    throw planKilled(`index '${ix.name}' can no longer serve this query`);
  }
  const keys = plan.keys;
  place.keys = keys;
  place.version = keys.version;
  place.slices = plan.slices;
  place.chunk = null;
  if (!last) {
    place.slice = 0;
    if (plan.slices.length) place.pos = forward ? plan.slices[0][0] : plan.slices[0][1] - 1;
    return;
  }
  const after = last;
  const p = forward
    ? keys.bound((e) => keys.cmp(e, after) <= 0)
    : keys.bound((e) => keys.cmp(e, after) < 0) - 1;
  // Slices are in walk order: ascending positions forward, descending backward.
  const si = plan.slices.findIndex(([from, to]) => (forward ? to > p : from <= p));
  place.slice = si === -1 ? plan.slices.length : si;
  if (si !== -1) {
    const [from, to] = plan.slices[si];
    place.pos = forward ? Math.max(p, from) : Math.min(p, to - 1);
  }
}
