// `$bucket` and `$setWindowFields` with MongoDB's BSON type order
// (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/), registered by our
// mingo contexts in place of mingo's, which compare mixed types by JavaScript type.
//
// - `$bucket` is what MongoDB makes of it: a `$group` whose `_id` is the bucket of `groupBy`
//   (the `$switch` of `$gte`/`$lt` comparisons MongoDB builds, decided here by BSON order),
//   followed by `$sort: { _id: 1 }`; both are the context's own (bson-order.ts). So only
//   non-empty buckets are output, in BSON order of their `_id`, the default one included.
// - `$setWindowFields` keeps mingo's window computation, fed so that its order is BSON order:
//   the input is ordered by (partition key, sortBy) in BSON order and each document carries, as
//   a hidden (non-enumerable) field, its dense rank in that order, which becomes the `sortBy`
//   mingo sorts by. Equal ranks are exactly BSON-equal keys, so `$rank`/`$denseRank` ties,
//   `documents` windows, `$shift`, `$first`/`$last`, `$locf` are as MongoDB's. Windows and
//   operators that read the sortBy values themselves (`range` windows, `unit`, `$linearFill`,
//   `$derivative`, `$integral`) are given the real `sortBy`: MongoDB requires numbers or dates
//   there, which mingo orders as MongoDB does; other values (int64s and decimals, which mingo
//   does not compute with, included) are refused (115).
import { evalExpr, OpType } from 'mingo/core';
import { type Iterator, Lazy } from 'mingo/lazy';
import { $setWindowFields as mingoSetWindowFields } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';

import { compareBson, plainNumber, sortFields, sortKeyOf, type StringOrder } from './bson-order';
import { MongoError, unsupported } from './errors';
import { type Doc, isPlainObject, typeRank } from './values';

type PipelineOp = (coll: Iterator, expr: unknown, options: Options) => Iterator;
type ExpressionOp = (obj: unknown, expr: unknown, options: Options) => unknown;

function pipelineOp(options: Options, name: string): PipelineOp {
  return options.context.getOperator(OpType.PIPELINE, name) as unknown as PipelineOp;
}

/** MongoDB's name of a value's BSON type, for error messages. */
function typeName(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (typeof v === 'number')
    return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? 'int' : 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof RegExp) return 'regex';
  if (isPlainObject(v)) return 'object';
  const t = (v as { _bsontype?: string })._bsontype;
  return t ? t.charAt(0).toLowerCase() + t.slice(1) : typeof v;
}

function location(code: number, msg: string): MongoError {
  return new MongoError(code, `Location${code}`, msg);
}

/** Our expression operator giving a document's `$bucket` `_id` (see bucketStage). */
export const BUCKET_OF_OP = '$_embeddedBucketOf';

interface BucketOfArg {
  groupBy: unknown;
  bounds: unknown[];
  hasDefault: boolean;
  default: unknown;
  order: StringOrder | null;
}

export const bucketOfOp: ExpressionOp = (obj, arg, options) => {
  const a = arg as BucketOfArg;
  if (!isPlainObject(arg) || !Array.isArray(a.bounds)) {
    throw new Error(`unknown operator ${BUCKET_OF_OP}`);
  }
  const key = evalExpr(obj, a.groupBy, options);
  const { bounds, order } = a;
  // The first branch whose [lower, upper) holds the key; bounds are ascending.
  if (
    compareBson(key, bounds[0], order) >= 0 &&
    compareBson(key, bounds[bounds.length - 1], order) < 0
  ) {
    let lo = 0;
    let hi = bounds.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (compareBson(key, bounds[mid], order) >= 0) lo = mid;
      else hi = mid;
    }
    return bounds[lo];
  }
  if (!a.hasDefault) {
    throw location(
      40066,
      '$switch could not find a matching branch for an input, and no default was specified.',
    );
  }
  return a.default;
};

const BUCKET_FIELDS = new Set(['groupBy', 'boundaries', 'default', 'output']);

/** `$bucket` as MongoDB desugars it: the context's `$group` on the bucket, then `$sort: { _id: 1 }`. */
export function bucketStage(order: StringOrder | null): PipelineOp {
  return (coll, expr, options) => {
    if (!isPlainObject(expr)) {
      throw location(
        40201,
        `Argument to $bucket stage must be an object, but found type: ${typeName(expr)}.`,
      );
    }
    for (const k of Object.keys(expr)) {
      if (!BUCKET_FIELDS.has(k)) throw location(40197, `Unrecognized option to $bucket: ${k}.`);
    }
    const { groupBy, boundaries } = expr;
    if (groupBy !== undefined) {
      const isPath = typeof groupBy === 'string' && groupBy.startsWith('$');
      const isExpr = isPlainObject(groupBy) && Object.keys(groupBy)[0]?.startsWith('$') === true;
      if (!isPath && !isExpr) {
        throw location(
          40202,
          `The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: ${JSON.stringify(groupBy)}.`,
        );
      }
    }
    if (boundaries !== undefined) {
      if (!Array.isArray(boundaries)) {
        throw location(
          40200,
          `The $bucket 'boundaries' field must be an array, but found type: ${typeName(boundaries)}.`,
        );
      }
      if (boundaries.length < 2) {
        throw location(
          40192,
          `The $bucket 'boundaries' field must have at least 2 values, but found ${boundaries.length} value(s).`,
        );
      }
      for (let i = 1; i < boundaries.length; i++) {
        const [lower, upper] = [boundaries[i - 1], boundaries[i]];
        if (typeRank(lower) !== typeRank(upper)) {
          throw location(
            40193,
            `All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types ${typeName(lower)} and ${typeName(upper)}.`,
          );
        }
        if (compareBson(lower, upper, order) >= 0) {
          throw location(
            40194,
            `The 'boundaries' option to $bucket must be sorted, but elements ${i - 1} and ${i} are not in ascending order (${JSON.stringify(lower)} is not less than ${JSON.stringify(upper)}).`,
          );
        }
      }
    }
    if (groupBy === undefined || !Array.isArray(boundaries)) {
      throw location(40198, "$bucket requires 'groupBy' and 'boundaries' to be specified.");
    }
    const hasDefault = 'default' in expr && expr.default !== undefined;
    if (hasDefault && typeRank(expr.default) === typeRank(boundaries[0])) {
      const below = compareBson(expr.default, boundaries[0], order) < 0;
      const above = compareBson(expr.default, boundaries[boundaries.length - 1], order) >= 0;
      if (!below && !above) {
        throw location(
          40199,
          "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.",
        );
      }
    }
    const output = expr.output ?? { count: { $sum: 1 } };
    if (!isPlainObject(output)) {
      throw location(
        40196,
        `The $bucket 'output' field must be an object, but found type: ${typeName(output)}.`,
      );
    }
    const arg: BucketOfArg = {
      groupBy,
      bounds: boundaries,
      hasDefault,
      default: expr.default,
      order,
    };
    const grouped = pipelineOp(options, '$group')(
      coll,
      { ...output, _id: { [BUCKET_OF_OP]: arg } },
      options,
    );
    return pipelineOp(options, '$sort')(grouped, { _id: 1 }, options);
  };
}

/** Window outputs that read the sortBy values themselves (not only their order). */
function readsSortValues(output: unknown): boolean {
  if (!isPlainObject(output)) return false;
  return Object.values(output).some((spec) => {
    if (!isPlainObject(spec)) return false;
    if ('$linearFill' in spec || '$derivative' in spec || '$integral' in spec) return true;
    const w = spec.window;
    return isPlainObject(w) && (w.range !== undefined || w.unit !== undefined);
  });
}

const RANK_FIELD = '__embeddedWindowOrder';

/**
 * `$function` as our contexts define it: mingo's `$setWindowFields` computes each window output
 * through a `$function` whose `body` is a JavaScript function it built itself; only such a body
 * is called. A client's `$function` (its body is BSON Code or a string, never a function) is
 * refused before any pipeline runs (`checkUnsupported`) and here again, so the store runs no
 * client script while mingo's `scriptEnabled` stays off.
 */
export const internalFunctionOp = (obj: unknown, expr: unknown, options: Options): unknown => {
  const fn = evalExpr(obj, expr, options) as { body?: unknown; args?: unknown[] };
  if (typeof fn?.body !== 'function') throw unsupported('$function (server-side JavaScript)');
  return (fn.body as (...args: unknown[]) => unknown)(...(fn.args ?? []));
};

/** `$setWindowFields` with partitions and sortBy in BSON order (see the file's comment). */
export function setWindowFieldsStage(order: StringOrder | null): PipelineOp {
  const run = mingoSetWindowFields as unknown as PipelineOp;
  return (coll, expr, options) => {
    if (!isPlainObject(expr)) return run(coll, expr, options);
    const { partitionBy, sortBy } = expr;
    const hasSort = isPlainObject(sortBy) && Object.keys(sortBy).length > 0;
    if (partitionBy === undefined && !hasSort) return run(coll, expr, options);
    const fields = hasSort ? sortFields(sortBy) : [];
    return coll.transform((input: unknown[]) => {
      const docs = input as Doc[];
      if (hasSort && readsSortValues(expr.output)) {
        for (const [f] of fields) {
          const vals = docs.map((d) => plainNumber(sortKeyOf(d, f, 1, order)));
          const numbers = vals.every((v) => typeof v === 'number');
          if (!numbers && !vals.every((v) => v instanceof Date)) {
            throw unsupported(
              `$setWindowFields with a range window, unit, $linearFill, $derivative or $integral over sortBy values other than all numbers or all dates (field '${f}')`,
            );
          }
        }
        return run(Lazy(docs), expr, options);
      }
      // Keys: the partition's, then each sortBy field's; directions alike.
      const dirs = [...(partitionBy === undefined ? [] : [1]), ...fields.map(([, d]) => d)];
      const keyed = docs.map((doc, i) => ({
        doc,
        i,
        keys: [
          ...(partitionBy === undefined ? [] : [evalExpr(doc, partitionBy, options)]),
          ...fields.map(([f, d]) => sortKeyOf(doc, f, d, order)),
        ],
      }));
      const cmp = (a: (typeof keyed)[number], b: (typeof keyed)[number]): number => {
        for (let k = 0; k < dirs.length; k++) {
          const c = compareBson(a.keys[k], b.keys[k], order);
          if (c) return c * dirs[k];
        }
        return 0;
      };
      keyed.sort((a, b) => cmp(a, b) || a.i - b.i);
      if (!hasSort) return run(Lazy(keyed.map((e) => e.doc)), expr, options);
      let rank = 0;
      const ranked = keyed.map((e, n) => {
        if (n > 0 && cmp(keyed[n - 1], e) !== 0) rank++;
        const copy: Doc = { ...e.doc };
        Object.defineProperty(copy, RANK_FIELD, { value: rank, enumerable: false });
        return copy;
      });
      return run(Lazy(ranked), { ...expr, sortBy: { [RANK_FIELD]: 1 } }, options);
    });
  };
}
