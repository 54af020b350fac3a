// Query plans: which index serves a filter and a sort, and which slices of it to walk.
//
// An index that can be walked in key order (Index.orderable: simple collation, not sparse,
// partial, multikey or hidden) serves a filter whose leading key fields have equality or $in
// conditions (one slice per combination of values) and whose next key field has a range
// ($gt/$gte/$lt/$lte), and a sort whose fields, after those bound by equality, are the index's
// next fields in order, all in the index's directions or all reversed. Several slices of one
// sort ($in) are merged. A plan is exact when its slices hold exactly the matching records (no
// other condition to test): skips jump, counts are the slices' sizes.
import { type Collection, type Index, isScalarForIndex } from './engine';
import { compareKeys, type Entry, type SortedKeys } from './sorted-keys';
import { type Doc, isPlainObject, typeRank } from './values';

export interface IndexPlan {
  kind: 'index';
  ix: Index;
  /** null until the chosen plan builds them (a whole-index walk of unbuilt entries). */
  keys: SortedKeys | null;
  /** [from, to) positions of the stored entries, in stored order. */
  slices: [number, number][];
  /** Walk the stored entries forward (else backward). */
  forward: boolean;
  /** The walk yields the requested sort (merging several slices by `mergeBy`). */
  sorted: boolean;
  /** The slices hold exactly the records matching the filter. */
  exact: boolean;
  size: number;
  /** For a merge of several slices: [entry position, direction] of each sort field. */
  mergeBy: [number, number][];
  /** Number of leading equality fields and whether the next one has a range (explain). */
  bounds: string;
}

export type Plan =
  IndexPlan | { kind: 'ids'; ids: string[]; size: number } | { kind: 'scan'; size: number };

interface Conjunct {
  field: string;
  cond: unknown;
}

/** A filter's field conditions (a top-level $and's members included); `residue`: others. */
function conjuncts(filter: Doc, out: Conjunct[]): boolean {
  let residue = false;
  for (const field of Object.keys(filter)) {
    const cond = filter[field];
    if (field === '$and' && Array.isArray(cond) && cond.length > 0) {
      for (const member of cond) {
        if (isPlainObject(member)) residue = conjuncts(member, out) || residue;
        else residue = true;
      }
    } else if (field.startsWith('$')) residue = true;
    else out.push({ field, cond });
  }
  return residue;
}

/** Values whose index order agrees with the query operators' matching. */
function boundable(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isNaN(v);
  if (v instanceof Date) return !Number.isNaN(v.getTime());
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  return isScalarForIndex(v) && typeRank(v) === 8; // ObjectId
}

function eqValues(cond: unknown): unknown[] | null {
  if (!isPlainObject(cond)) return boundable(cond) ? [cond] : null;
  const ks = Object.keys(cond);
  if (ks.length !== 1) return null;
  if (ks[0] === '$eq') return boundable(cond.$eq) ? [cond.$eq] : null;
  if (ks[0] === '$in' && Array.isArray(cond.$in) && cond.$in.every(boundable)) {
    const vals = [...cond.$in].sort(compareKeys);
    return vals.filter((v, i) => i === 0 || compareKeys(vals[i - 1], v) !== 0);
  }
  return null;
}

interface Range {
  rank: number;
  low?: { v: unknown; incl: boolean };
  high?: { v: unknown; incl: boolean };
  empty: boolean;
}

function rangeOf(cond: unknown): Range | null {
  if (!isPlainObject(cond)) return null;
  const ops = Object.keys(cond);
  if (!ops.length) return null;
  const r: Range = { rank: -1, empty: false };
  for (const op of ops) {
    const v = cond[op];
    if (!(op in RANGE_OPS) || !boundable(v)) return null;
    if (v === null && (op === '$gt' || op === '$lt')) r.empty = true; // matches nothing
    const rank = typeRank(v);
    if (r.rank >= 0 && r.rank !== rank) r.empty = true; // each operator matches its own type
    r.rank = rank;
    const incl = op === '$gte' || op === '$lte';
    if (op === '$gt' || op === '$gte') {
      const c = r.low ? compareKeys(v, r.low.v) : 1;
      if (c > 0 || (c === 0 && !incl)) r.low = { v, incl };
    } else {
      const c = r.high ? compareKeys(v, r.high.v) : -1;
      if (c < 0 || (c === 0 && !incl)) r.high = { v, incl };
    }
  }
  return r;
}

const RANGE_OPS = { $gt: 1, $gte: 1, $lt: 1, $lte: 1 };
/** At most this many slices ($in combinations); past it, fewer leading fields bound the walk. */
const MAX_SLICES = 256;

/** The plan of one orderable index for the filter's conditions and the sort; null if useless. */
function indexPlan(
  coll: Collection,
  ix: Index,
  conds: Conjunct[],
  residue: boolean,
  sort: [string, number][],
): IndexPlan | null {
  const n = ix.fields.length;
  const used = new Set<Conjunct>();
  const eqLists: unknown[][] = [];
  let combos = 1;
  for (let k = 0; k < n; k++) {
    const c = conds.find((x) => x.field === ix.fields[k][0] && eqValues(x.cond));
    if (!c) break;
    const vals = eqValues(c.cond)!;
    if (combos * vals.length > MAX_SLICES) break;
    combos *= vals.length;
    eqLists.push(vals);
    used.add(c);
  }
  const k = eqLists.length;
  let range: Range | null = null;
  if (k < n) {
    const c = conds.find((x) => x.field === ix.fields[k][0] && rangeOf(x.cond));
    if (c) {
      range = rangeOf(c.cond);
      used.add(c);
    }
  }
  // The sort, without the fields bound by equality, must be the next key fields in order.
  const positions = new Map(ix.fields.map(([f], i) => [f, i]));
  const eqFields = new Set(ix.fields.slice(0, k).map(([f]) => f));
  const rest = sort.filter(([f]) => !eqFields.has(f));
  let relation = 0; // 1: the index's directions, -1: all reversed
  let servesSort = sort.every(([f]) => positions.has(f)) && rest.length <= n - k;
  for (let j = 0; servesSort && j < rest.length; j++) {
    const [f, d] = ix.fields[k + j];
    const r = rest[j][1] === (d < 0 ? -1 : 1) ? 1 : -1;
    if (rest[j][0] !== f || (relation !== 0 && r !== relation)) servesSort = false;
    relation = r;
  }
  if (k === 0 && !range && (!servesSort || sort.length === 0)) return null;
  // A whole-index walk (a sort alone) is costed without building unbuilt entries: only the
  // chosen plan builds them (choosePlan).
  const whole = k === 0 && !range;
  const keys = whole && !ix.hasSortedKeys ? null : ix.sortedKeys(coll.records);
  if (!keys && !whole) return null;
  const dirs = ix.storedDirs;
  const slices: [number, number][] = keys
    ? slicesOf(keys, dirs, eqLists, range)
    : [[0, coll.records.size]];
  const forward = (relation || 1) * (ix.fields[0][1] < 0 ? -1 : 1) > 0;
  if (!forward) slices.reverse();
  let size = 0;
  for (const [from, to] of slices) size += to - from;
  const exact = !residue && conds.every((c) => used.has(c));
  const mergeBy = sort.map(([f, d]): [number, number] => [positions.get(f) ?? 0, d]);
  const bounds = `${k} equality field(s)${range ? ', a range' : ''}`;
  return {
    kind: 'index',
    ix,
    keys,
    slices,
    forward,
    sorted: servesSort,
    exact,
    size,
    mergeBy,
    bounds,
  };
}

/** The [from, to) slices, in stored order, of each combination of the equality values. */
function slicesOf(
  keys: SortedKeys,
  dirs: number[],
  eqLists: unknown[][],
  range: Range | null,
): [number, number][] {
  const k = eqLists.length;
  let combos: unknown[][] = [[]];
  for (let i = 0; i < k; i++) {
    const vals = dirs[i] > 0 ? eqLists[i] : [...eqLists[i]].reverse();
    combos = combos.flatMap((prefix) => vals.map((v) => [...prefix, v]));
  }
  const out: [number, number][] = [];
  for (const t of combos) {
    const cmp = (e: Entry): number => {
      for (let i = 0; i < k; i++) {
        const c = compareKeys(e[i], t[i]);
        if (c) return c * dirs[i];
      }
      return 0;
    };
    let from = keys.bound((e) => cmp(e) < 0);
    let to = keys.bound((e) => cmp(e) <= 0, from);
    if (range) {
      if (range.empty) continue;
      const { low, high, rank } = range;
      const belowLow = (v: unknown): boolean => {
        if (!low) return typeRank(v) < rank;
        const c = compareKeys(v, low.v);
        return low.incl ? c < 0 : c <= 0;
      };
      const aboveHigh = (v: unknown): boolean => {
        if (!high) return typeRank(v) > rank;
        const c = compareKeys(v, high.v);
        return high.incl ? c > 0 : c >= 0;
      };
      const [first, last] = dirs[k] > 0 ? [belowLow, aboveHigh] : [aboveHigh, belowLow];
      from = keys.bound((e) => first(e[k]), from, to);
      to = keys.bound((e) => !last(e[k]), from, to);
    }
    if (from < to) out.push([from, to]);
  }
  return out;
}

/**
 * The plan for a filter and a sort (`want`: skip + limit, 0 for all): an exact index plan that
 * serves the sort first, else the cheapest by estimated records examined, counting a sort of
 * the candidates; equality on `_id` or on a single-field index (its hash map, which multikey
 * indexes keep too) competes as a list of ids.
 */
export function choosePlan(
  coll: Collection,
  filter: Doc,
  sort: Doc | undefined,
  want: number,
): Plan {
  const conds: Conjunct[] = [];
  const residue = conjuncts(filter, conds);
  const sortFields = sort
    ? Object.entries(sort).map(([f, d]): [string, number] => [f, Number(d) < 0 ? -1 : 1])
    : [];
  const plans: Plan[] = [{ kind: 'scan', size: coll.records.size }];
  const ids = coll.equalityIds(filter);
  if (ids) plans.push({ kind: 'ids', ids, size: ids.length });
  for (const ix of coll.indexes) {
    if (!ix.orderable) continue;
    const p = indexPlan(coll, ix, conds, residue, sortFields);
    if (p) plans.push(p);
  }
  const narrowest = Math.min(...plans.map((p) => p.size));
  const sorts = sortFields.length > 0;
  const cost = (p: Plan): number => {
    const ordered = !sorts || (p.kind === 'index' && p.sorted);
    if (!ordered) return p.size * 1.5 + 1;
    if (p.kind === 'index' && p.exact) return want ? Math.min(p.size, want) : p.size;
    // Matches are at most `narrowest`: expect to walk want * size / narrowest entries.
    const walk = want ? Math.min(p.size, (want * p.size) / Math.max(1, narrowest)) : p.size;
    return walk + (p.kind === 'index' ? 0.5 : 0);
  };
  let best = plans[0];
  let bestCost = cost(best);
  for (const p of plans.slice(1)) {
    const c = cost(p);
    if (c < bestCost || (c === bestCost && p.kind === 'index' && p.exact)) {
      best = p;
      bestCost = c;
    }
  }
  if (best.kind === 'index' && !best.keys) {
    best.keys = best.ix.sortedKeys(coll.records);
    // A multikey document found while building: the index cannot serve; scan.
    if (!best.keys) return plans[0];
    best.slices = [[0, best.keys.size]];
  }
  return best;
}

/**
 * The plan of one index for a filter and a sort again, with its entries built: a lazy cursor's
 * walk after writes moved the positions (its slices are recomputed from the same bounds).
 * Null when the index can no longer serve (it became multikey, or was hidden).
 */
export function replanIndex(
  coll: Collection,
  ix: Index,
  filter: Doc,
  sort: Doc | undefined,
): IndexPlan | null {
  if (!ix.orderable) return null;
  const conds: Conjunct[] = [];
  const residue = conjuncts(filter, conds);
  const sortFields = sort
    ? Object.entries(sort).map(([f, d]): [string, number] => [f, Number(d) < 0 ? -1 : 1])
    : [];
  const plan = indexPlan(coll, ix, conds, residue, sortFields);
  if (!plan) return null;
  if (!plan.keys) {
    plan.keys = ix.sortedKeys(coll.records);
    if (!plan.keys) return null;
    plan.slices = [[0, plan.keys.size]];
  }
  return plan;
}

/** A short description of a plan (explain's planSummary). */
export function planSummary(plan: Plan): string {
  if (plan.kind === 'scan') return 'COLLSCAN';
  if (plan.kind === 'ids') return 'IDHACK/IXSCAN (equality)';
  return `IXSCAN ${JSON.stringify(plan.ix.spec.key)}`;
}
