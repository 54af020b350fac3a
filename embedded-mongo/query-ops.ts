// Query operators that every mingo context of ours registers in place of mingo's own, where
// mingo's differ from MongoDB 7.0:
// - `$all` is an `$and` of equalities (https://www.mongodb.com/docs/manual/reference/operator/query/all/):
//   it matches a non-array field equal to its one value, and `[[1, 2]]` matches `[1, 2]` as well
//   as `[[1, 2], 3]`; mingo's only looked inside arrays.
// - `$gte: null` and `$lte: null` match exactly what `$eq: null` matches (null and missing
//   fields): null is alone in its type bracket and compares equal to a missing field
//   (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/); mingo's
//   skipped missing fields. `$gt: null` and `$lt: null` match nothing, as in mingo.
// - Equality with null (`$eq`, `$ne`, `$in`, `$nin`) matches as MongoDB 5.0 to 7.0 do through
//   arrays (values.ts, matchesNull): `{ 'a.b': null }` needs an object element of `a` without
//   `b` (or with b null), where mingo took `a: [{}]` for no match and `a: [1, 2]` for one.
// `$all`, `$gte` and `$lte` are built from the context's own `$eq`, `$regex` and `$elemMatch`,
// so a collation's context (collation.ts) compares their strings by the collation.
import { OpType } from 'mingo/core';
import {
  $eq as mingoEq,
  $gte as mingoGte,
  $in as mingoIn,
  $lte as mingoLte,
  $ne as mingoNe,
  $nin as mingoNin,
} from 'mingo/operators/query';
import type { Options } from 'mingo/types';

import { type Doc, isPlainObject, matchesNull } from './values';

type QueryOp = (selector: string, value: unknown, options: Options) => (doc: Doc) => boolean;

function contextOp(options: Options, name: string): QueryOp {
  const op = options.context.getOperator(OpType.QUERY, name);
  if (!op) throw new Error(`unknown query operator ${name}`);
  return op as unknown as QueryOp;
}

function isOperatorObject(v: unknown): v is Doc {
  return isPlainObject(v) && Object.keys(v)[0]?.startsWith('$') === true;
}

/** `$all`: every value matches as `{ field: value }` would (a regex as a regex, `$elemMatch` as such). */
export const $all: QueryOp = (selector, value, options) => {
  if (!Array.isArray(value)) throw new Error('$all needs an array');
  if (value.length === 0) return () => false;
  const elemMatches = value.filter((v) => isOperatorObject(v) && '$elemMatch' in v).length;
  if (elemMatches > 0 && elemMatches !== value.length) {
    throw new Error('$all/$elemMatch has to be consistent');
  }
  const preds = value.map((v) => {
    if (elemMatches)
      return contextOp(options, '$elemMatch')(selector, (v as Doc).$elemMatch, options);
    if (v instanceof RegExp) return contextOp(options, '$regex')(selector, v, options);
    if (isOperatorObject(v)) throw new Error('no $ expressions in $all');
    return contextOp(options, '$eq')(selector, v, options);
  });
  return (doc) => preds.every((p) => p(doc));
};

function nullAsEquality(base: QueryOp): QueryOp {
  return (selector, value, options) =>
    value === null
      ? contextOp(options, '$eq')(selector, null, options)
      : base(selector, value, options);
}

export const $gte = nullAsEquality(mingoGte as unknown as QueryOp);
export const $lte = nullAsEquality(mingoLte as unknown as QueryOp);

const mingoOp = (op: unknown) => op as QueryOp;

export const $eq: QueryOp = (selector, value, options) =>
  value === null ? (doc) => matchesNull(doc, selector) : mingoOp(mingoEq)(selector, value, options);

export const $ne: QueryOp = (selector, value, options) =>
  value === null
    ? (doc) => !matchesNull(doc, selector)
    : mingoOp(mingoNe)(selector, value, options);

/** `$in` with null among its values: null as `$eq: null` does, the others by mingo's `$in`. */
export const $in: QueryOp = (selector, value, options) => {
  if (!Array.isArray(value) || !value.includes(null)) {
    return mingoOp(mingoIn)(selector, value, options);
  }
  const others = value.filter((v) => v !== null);
  const rest = others.length ? mingoOp(mingoIn)(selector, others, options) : () => false;
  return (doc) => matchesNull(doc, selector) || rest(doc);
};

export const $nin: QueryOp = (selector, value, options) => {
  if (!Array.isArray(value) || !value.includes(null)) {
    return mingoOp(mingoNin)(selector, value, options);
  }
  const inPred = $in(selector, value, options);
  return (doc) => !inPred(doc);
};

/** The query operators our contexts use in place of mingo's. */
export const QUERY_OPS = { $all, $eq, $ne, $in, $nin, $gte, $lte };
