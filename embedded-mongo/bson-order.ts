// MongoDB's BSON comparison order for aggregation stages run in mingo
// (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/): comparison of
// values with strings optionally compared by a collation, document sorters, and the `$sort` and
// `$sortByCount` pipeline operators that the mingo contexts register in place of mingo's own
// (which order mixed types by JavaScript type). Imports nothing from the engine, so the mingo
// context module can use it.
import { Double, Int32 } from 'bson';
import { evalExpr, OpType } from 'mingo/core';
import { type Iterator, Lazy } from 'mingo/lazy';
import { $group } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';

import { compareValues, type Doc, isPlainObject, keyOf, sortKey, typeRank } from './values';

/** How strings compare (a collation); null is the simple, binary collation. */
export interface StringOrder {
  readonly compareStrings: (a: string, b: string) => number;
  /** A string equal for strings held equal (for hashing). */
  readonly stringKey: (s: string) => string;
}

/** Int32/Double wrappers (restored number types) compare as plain numbers. */
export function plainNumber(v: unknown): unknown {
  if (v instanceof Double || v instanceof Int32) return v.value;
  return v;
}

/** BSON-order comparison (as compareValues), comparing strings by `order` when given. */
export function compareBson(a: unknown, b: unknown, order: StringOrder | null): number {
  a = plainNumber(a);
  b = plainNumber(b);
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (ra === 4 && order) return order.compareStrings(String(a), String(b));
  if (ra === 5) {
    const ka = Object.keys(a as Doc);
    const kb = Object.keys(b as Doc);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      const va = plainNumber((a as Doc)[ka[i]]);
      const vb = plainNumber((b as Doc)[kb[i]]);
      const t = typeRank(va) - typeRank(vb);
      if (t) return t < 0 ? -1 : 1;
      if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
      const c = compareBson(va, vb, order);
      if (c) return c;
    }
    return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
  }
  if (ra === 6) {
    const xa = a as unknown[];
    const xb = b as unknown[];
    for (let i = 0; i < Math.min(xa.length, xb.length); i++) {
      const c = compareBson(xa[i], xb[i], order);
      if (c) return c;
    }
    return xa.length === xb.length ? 0 : xa.length < xb.length ? -1 : 1;
  }
  return compareValues(a, b);
}

/**
 * keyOf (equal keys for values MongoDB holds equal, numbers of every type included) with
 * strings replaced by their equality keys under `order` (for hashing).
 */
export function collatedKeyOf(v: unknown, order: StringOrder | null): string {
  if (typeof v === 'string') return order ? 's' + order.stringKey(v) : keyOf(v);
  if (Array.isArray(v)) return 'a[' + v.map((x) => collatedKeyOf(x, order)).join(',') + ']';
  if (isPlainObject(v)) {
    let s = 'x{';
    for (const k of Object.keys(v)) s += JSON.stringify(k) + ':' + collatedKeyOf(v[k], order) + ',';
    return s + '}';
  }
  return keyOf(plainNumber(v));
}

export function sortKeyOf(doc: Doc, path: string, dir: number, order: StringOrder | null): unknown {
  return sortKey(doc, path, dir, (a, b) => compareBson(a, b, order));
}

export function sortFields(sort: Doc): (readonly [string, number])[] {
  return Object.entries(sort).map(([k, d]) => {
    if (isPlainObject(d)) throw new Error(`$meta sort is not supported (field ${k})`);
    const n = Number(d);
    if (n !== 1 && n !== -1) {
      throw new Error('$sort key ordering must be 1 (for ascending) or -1 (for descending)');
    }
    return [k, n] as const;
  });
}

/**
 * Sorts `items` in place by a sort specification (`{ field: 1 | -1 }`) applied to
 * `docOf(item)`: BSON type order, an array sorting by its smallest (ascending) or largest
 * (descending) element, strings by `order`. Each item's sort keys are computed once. Stable.
 */
export function sortBson<T>(
  items: T[],
  docOf: (item: T) => Doc,
  sort: Doc,
  order: StringOrder | null,
): T[] {
  const fields = sortFields(sort);
  const keyed = items.map((item, i) => {
    const doc = docOf(item);
    return { item, i, keys: fields.map(([k, d]) => sortKeyOf(doc, k, d, order)) };
  });
  keyed.sort((a, b) => {
    for (let f = 0; f < fields.length; f++) {
      const c = compareBson(a.keys[f], b.keys[f], order);
      if (c) return c * fields[f][1];
    }
    return a.i - b.i;
  });
  for (let i = 0; i < keyed.length; i++) items[i] = keyed[i].item;
  return items;
}

type PipelineOp = (coll: Iterator, expr: unknown, options: Options) => Iterator;

/** `$sort` and `$sortByCount` pipeline operators ordering by BSON type order and `order`. */
export function sortStages(order: StringOrder | null): {
  $sort: PipelineOp;
  $sortByCount: PipelineOp;
} {
  const $sort: PipelineOp = (coll, expr) => {
    if (!isPlainObject(expr) || Object.keys(expr).length === 0) {
      throw new Error('$sort stage must have at least one sort key');
    }
    sortFields(expr);
    return coll.transform((docs: unknown[]) =>
      Lazy(sortBson(docs as Doc[], (d) => d, expr, order)),
    );
  };
  const $sortByCount: PipelineOp = (coll, expr, options) => {
    // The context's $group (collated in a collation's context).
    const group = (options.context.getOperator(OpType.PIPELINE, '$group') ??
      $group) as unknown as PipelineOp;
    const grouped = group(coll, { _id: expr, count: { $sum: 1 } }, options);
    return $sort(grouped, { count: -1 }, options);
  };
  return { $sort, $sortByCount };
}

type ExpressionOp = (obj: unknown, expr: unknown, options: Options) => unknown;

/** Our expression operator computing a document's group key (see groupStage). */
export const GROUP_KEY_OP = '$_embeddedGroupKey';

interface GroupKeyArg {
  expr: unknown;
  firstSeen: Map<string, unknown>;
  order: StringOrder | null;
}

/** The group key of a document: the first key seen that equals it (numbers of every type, strings by `order`). */
export const groupKeyOp: ExpressionOp = (obj, arg, options) => {
  const a = arg as GroupKeyArg;
  if (!isPlainObject(arg) || !(a.firstSeen instanceof Map)) {
    throw new Error(`unknown operator ${GROUP_KEY_OP}`);
  }
  const key = evalExpr(obj, a.expr, options);
  const k = collatedKeyOf(key, a.order);
  if (!a.firstSeen.has(k)) a.firstSeen.set(k, key);
  return a.firstSeen.get(k);
};

/**
 * `$group` with MongoDB's key equality: 1, 1.0 and NumberLong(1) are one key (mingo's own
 * `$group` keeps number types apart), and strings equal under `order` (a collation) are one key.
 * mingo's `$group` runs on the first key seen of each class, computed by GROUP_KEY_OP.
 */
export function groupStage(order: StringOrder | null): PipelineOp {
  return (input, expr, options) => {
    if (!isPlainObject(expr) || !('_id' in expr)) {
      throw new Error('a group specification must include an _id');
    }
    const arg: GroupKeyArg = { expr: expr._id, firstSeen: new Map(), order };
    const idExpr = { [GROUP_KEY_OP]: arg };
    return ($group as unknown as PipelineOp)(input, { ...expr, _id: idExpr }, options);
  };
}
