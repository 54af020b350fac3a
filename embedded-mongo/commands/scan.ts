// Running a plan (planner.ts) under the simple collation: the records of a find with its sort,
// skip and limit, and counts, noting the index keys and documents examined (explain).
import type { Collection, Rec } from '../engine';
import { choosePlan, type IndexPlan, planSummary } from '../planner';
import { compareKeys, type Entry } from '../sorted-keys';
import { type Doc, makeSorter } from '../values';

export interface Tester {
  test(doc: Doc): boolean;
}

/** What a read examined, as explain's executionStats reports it. */
export interface ScanStats {
  plan: string;
  keysExamined: number;
  docsExamined: number;
  /** The index walk yields the sort (no in-memory sort). */
  indexSorted: boolean;
  /** The index bounds are the whole filter (nothing tested per document). */
  exact: boolean;
  /** The index walked, and in which direction of its keys. */
  index?: { name: string; keyPattern: Doc; direction: 'forward' | 'backward' };
}

function noteIndex(stats: ScanStats, plan: IndexPlan): void {
  const indexForward = plan.forward === plan.ix.fields[0][1] > 0;
  stats.index = {
    name: plan.ix.name,
    keyPattern: plan.ix.spec.key,
    direction: indexForward ? 'forward' : 'backward',
  };
}

export function newStats(): ScanStats {
  return { plan: '', keysExamined: 0, docsExamined: 0, indexSorted: false, exact: false };
}

function idOf(e: Entry): string {
  return e[e.length - 2] as string;
}

/** The record an entry was made from (entries are replaced with their record). */
function recOf(e: Entry): Rec {
  return e[e.length - 1] as Rec;
}

/**
 * Calls `fn` on the plan's entries in walk order, until it returns false: the slices one after
 * the other, or merged by the sort (`merge`, for several slices of an $in). Returns the number
 * of entries visited.
 */
function walkEntries(plan: IndexPlan, merge: boolean, fn: (e: Entry) => boolean): number {
  const { slices, forward } = plan;
  const keys = plan.keys!; // choosePlan builds the chosen plan's entries
  let visited = 0;
  if (!merge || slices.length <= 1) {
    for (const [from, to] of slices) {
      let go = true;
      visited += keys.walk(from, to, forward, (e) => (go = fn(e)));
      if (!go) break;
    }
    return visited;
  }
  const n = plan.ix.fields.length;
  const tieDir = (plan.ix.fields[0][1] < 0 ? -1 : 1) * (forward ? 1 : -1);
  const cmp = (a: Entry, b: Entry): number => {
    for (const [p, d] of plan.mergeBy) {
      const c = compareKeys(a[p], b[p]);
      if (c) return c * d;
    }
    return ((a[n] as number) - (b[n] as number)) * tieDir;
  };
  const step = forward ? 1 : -1;
  const heads = slices.map(([from, to]) => (forward ? [from, to] : [to - 1, from - 1]));
  for (;;) {
    let best = -1;
    let bestEntry: Entry | null = null;
    for (let i = 0; i < heads.length; i++) {
      if (heads[i][0] === heads[i][1]) continue;
      const e = keys.at(heads[i][0]);
      if (!bestEntry || cmp(e, bestEntry) < 0) {
        best = i;
        bestEntry = e;
      }
    }
    if (!bestEntry) return visited;
    heads[best][0] += step;
    visited++;
    if (!fn(bestEntry)) return visited;
  }
}

/** Matching records of `filter` (tested by `q`; null: all) in sort order, skip and limit applied. */
export function runFind(
  coll: Collection,
  filter: Doc,
  q: Tester | null,
  sort: Doc | undefined,
  skip: number,
  limit: number,
  stats: ScanStats = newStats(),
): [string, Rec][] {
  const records = coll.records;
  const sorts = !!sort && Object.keys(sort).length > 0;
  const plan = choosePlan(coll, filter, sort, limit ? skip + limit : 0);
  stats.plan = planSummary(plan);
  const out: [string, Rec][] = [];
  const full = (): boolean => !limit || out.length < limit;
  if (plan.kind === 'index') noteIndex(stats, plan);
  if (plan.kind === 'index' && (plan.sorted || !sorts)) {
    stats.indexSorted = sorts;
    stats.exact = plan.exact;
    const merge = sorts && plan.slices.length > 1;
    const take = (e: Entry): boolean => {
      stats.docsExamined++;
      out.push([idOf(e), recOf(e)]);
      return full();
    };
    if (plan.exact && !merge) {
      // The slices are the answer: jump over the skipped entries.
      let toSkip = skip;
      for (const [from, to] of plan.slices) {
        if (toSkip >= to - from) {
          toSkip -= to - from;
          continue;
        }
        const [a, b] = plan.forward ? [from + toSkip, to] : [from, to - toSkip];
        toSkip = 0;
        stats.keysExamined += plan.keys!.walk(a, b, plan.forward, take);
        if (!full()) break;
      }
      return out;
    }
    let skipped = 0;
    stats.keysExamined += walkEntries(plan, merge, (e) => {
      if (plan.exact) {
        if (skipped >= skip) return take(e);
        skipped++;
        return true;
      }
      const rec = recOf(e);
      stats.docsExamined++;
      if (q && !q.test(rec.doc)) return true;
      if (skipped < skip) {
        skipped++;
        return true;
      }
      out.push([idOf(e), rec]);
      return full();
    });
    return out;
  }
  // Candidates in no useful order: test them all, then sort (or stop at the limit if unsorted).
  const matched: [string, Rec][] = [];
  const consider = (id: string, rec: Rec | undefined): boolean => {
    stats.docsExamined++;
    if (rec && (!q || q.test(rec.doc))) matched.push([id, rec]);
    return sorts || !limit || matched.length < skip + limit;
  };
  if (plan.kind === 'ids') {
    stats.keysExamined += plan.ids.length;
    for (const id of plan.ids) if (!consider(id, records.get(id))) break;
  } else if (plan.kind === 'index') {
    stats.keysExamined += walkEntries(plan, false, (e) => consider(idOf(e), recOf(e)));
  } else for (const [id, rec] of records) if (!consider(id, rec)) break;
  if (sorts) {
    const sorter = makeSorter(sort as Record<string, number>);
    matched.sort((a, b) => sorter(a[1].doc, b[1].doc));
  }
  return limit ? matched.slice(skip, skip + limit) : matched.slice(skip);
}

/** The number of records matching `filter`, without building a list of them. */
export function runCount(
  coll: Collection,
  filter: Doc,
  q: Tester | null,
  stats: ScanStats = newStats(),
): number {
  if (!q) {
    stats.plan = 'RECORD_STORE_FAST_COUNT';
    return coll.records.size;
  }
  const plan = choosePlan(coll, filter, undefined, 0);
  stats.plan = planSummary(plan);
  const records = coll.records;
  let n = 0;
  const test = (rec: Rec | undefined): void => {
    stats.docsExamined++;
    if (rec && q.test(rec.doc)) n++;
  };
  if (plan.kind === 'index') {
    noteIndex(stats, plan);
    stats.exact = plan.exact;
    if (plan.exact) {
      stats.keysExamined = plan.size;
      return plan.size;
    }
    stats.keysExamined += walkEntries(plan, false, (e) => {
      test(recOf(e));
      return true;
    });
  } else if (plan.kind === 'ids') {
    stats.keysExamined += plan.ids.length;
    for (const id of plan.ids) test(records.get(id));
  } else for (const rec of records.values()) test(rec);
  return n;
}
