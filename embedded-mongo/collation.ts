// Collations (https://www.mongodb.com/docs/manual/reference/collation/): parsing and validating a
// collation document, string comparison by ICU through Intl.Collator, BSON-order comparison and
// sorting with collated strings, equality keys for hashing (indexes, distinct), and a mingo
// context whose comparison query operators and $sort honour the collation.
//
// The simple collation (no collation, or `{ locale: 'simple' }`) is `null` everywhere: callers
// keep their binary fast paths for it.
import { type Context, evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { compareBson, plainNumber, type StringOrder } from './bson-order';
import { badValue, MongoError, unsupported } from './errors';
import { makeContext } from './mingo-context';
import { type Doc, isPlainObject, keyOf, matchesNull, typeRank } from './values';

export interface Collation extends StringOrder {
  /** The collation as MongoDB reports it (every field filled in). */
  readonly spec: Doc;
  /** A mingo context whose comparison operators and $sort use this collation. */
  readonly context: Context;
}

const FIELDS = new Set([
  'locale',
  'caseLevel',
  'caseFirst',
  'strength',
  'numericOrdering',
  'alternate',
  'maxVariable',
  'normalization',
  'backwards',
  'version',
]);

/** ICU version MongoDB 7.0 reports in collation documents. */
const ICU_VERSION = '57.1';

const cache = new Map<string, Collation>();

function describeSpec(raw: Doc): string {
  return (
    '{ ' +
    Object.entries(raw)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join(', ') +
    ' }'
  );
}

/**
 * Parses a `collation` argument. Returns null for no collation and for the simple collation;
 * throws MongoDB's errors for malformed documents and refuses options it does not implement.
 */
export function parseCollation(raw: unknown): Collation | null {
  if (raw === undefined || raw === null) return null;
  if (!isPlainObject(raw)) {
    throw new MongoError(
      14,
      'TypeMismatch',
      "BSON field 'collation' is the wrong type, expected object",
    );
  }
  const key = keyOf(raw);
  const hit = cache.get(key);
  if (hit) return hit;
  for (const k of Object.keys(raw)) {
    if (!FIELDS.has(k)) {
      throw new MongoError(
        40415,
        'Location40415',
        `BSON field 'Collation.${k}' is an unknown field.`,
      );
    }
  }
  const locale = raw.locale;
  if (locale === undefined) {
    throw new MongoError(
      40414,
      'Location40414',
      "BSON field 'Collation.locale' is missing but a required field",
    );
  }
  if (typeof locale !== 'string') {
    throw new MongoError(
      14,
      'TypeMismatch',
      "BSON field 'Collation.locale' is the wrong type, expected string",
    );
  }
  if (locale === 'simple') {
    if (Object.keys(raw).length > 1) {
      throw badValue(
        `If 'locale' is set to 'simple', no other fields may be set: ${describeSpec(raw)}`,
      );
    }
    return null;
  }
  const intlLocale = toIntlLocale(locale);
  if (!intlLocale) throw badValue(`Field 'locale' is invalid in: ${describeSpec(raw)}`);
  const strength = raw.strength === undefined ? 3 : Number(raw.strength);
  if (![1, 2, 3, 4, 5].includes(strength)) {
    throw badValue(`Field 'strength' must be an integer 1 through 5. Got: ${String(raw.strength)}`);
  }
  const bool = (k: string): boolean => {
    const v = raw[k];
    if (v === undefined) return false;
    if (typeof v !== 'boolean') {
      throw new MongoError(
        14,
        'TypeMismatch',
        `BSON field 'Collation.${k}' is the wrong type, expected boolean`,
      );
    }
    return v;
  };
  const caseLevel = bool('caseLevel');
  const numericOrdering = bool('numericOrdering');
  const normalization = bool('normalization');
  const backwards = bool('backwards');
  const caseFirst = raw.caseFirst ?? 'off';
  if (!['upper', 'lower', 'off'].includes(caseFirst as string)) {
    throw badValue(
      `Field 'caseFirst' must be 'upper', 'lower' or 'off'. Got: ${String(caseFirst)}`,
    );
  }
  const alternate = raw.alternate ?? 'non-ignorable';
  if (!['non-ignorable', 'shifted'].includes(alternate as string)) {
    throw badValue(
      `Field 'alternate' must be 'non-ignorable' or 'shifted'. Got: ${String(alternate)}`,
    );
  }
  const maxVariable = raw.maxVariable ?? 'punct';
  if (!['punct', 'space'].includes(maxVariable as string)) {
    throw badValue(`Field 'maxVariable' must be 'punct' or 'space'. Got: ${String(maxVariable)}`);
  }
  // What Intl.Collator cannot express is refused rather than approximated.
  if (strength > 3) throw unsupported(`Collation strength ${strength} (quaternary/identical)`);
  if (alternate === 'shifted') throw unsupported("Collation option alternate: 'shifted'");
  if (backwards) throw unsupported('Collation option backwards: true');
  const sensitivity =
    strength === 1
      ? caseLevel
        ? 'case'
        : 'base'
      : strength === 2 && !caseLevel
        ? 'accent'
        : 'variant';
  const collator = new Intl.Collator(intlLocale, {
    usage: 'sort',
    sensitivity,
    numeric: numericOrdering,
    caseFirst: caseFirst === 'off' ? 'false' : (caseFirst as 'upper' | 'lower'),
  });
  const compareStrings = (a: string, b: string): number => collator.compare(a, b);
  const spec: Doc = {
    locale,
    caseLevel,
    caseFirst,
    strength,
    numericOrdering,
    alternate,
    maxVariable,
    normalization,
    backwards,
    version: ICU_VERSION,
  };
  const stringKey = equalityKeys(intlLocale, numericOrdering, compareStrings);
  const coll: Collation = { spec, compareStrings, stringKey, context: undefined as never };
  (coll as { context: Context }).context = collatedContext(coll);
  cache.set(key, coll);
  return coll;
}

/**
 * Equality keys for strings under a collation: equal keys exactly when the collator holds the
 * strings equal. A coarse key (each character's primary letter, case, accents and ignorable
 * characters dropped) buckets the strings; within a bucket the collator itself decides, and
 * each class of equal strings is numbered by its first member. The classes seen are kept for
 * the life of the process (one entry per distinct value, the size of the data at most).
 */
function equalityKeys(
  locale: string,
  numeric: boolean,
  compare: (a: string, b: string) => number,
): (s: string) => string {
  const base = new Intl.Collator(locale, { sensitivity: 'base', numeric });
  const primary = new Map<string, string>();
  const ALNUM = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
  const DIGRAPHS = ['ss', 'ae', 'oe', 'th', 'ij', 'dz', 'lj', 'nj', 'ue'];
  const primaryOf = (ch: string): string => {
    let p = primary.get(ch);
    if (p !== undefined) return p;
    if (base.compare(ch, '') === 0) p = '';
    else {
      const plain = ch.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
      p =
        [...ALNUM, ...DIGRAPHS, plain].find((c) => c !== '' && base.compare(ch, c) === 0) ??
        ch.toLowerCase();
    }
    primary.set(ch, p);
    return p;
  };
  const coarse = (s: string): string => {
    let k = '';
    for (const ch of s.normalize('NFD')) k += primaryOf(ch);
    return numeric ? k.replace(/\d+/g, (m) => m.replace(/^0+(?=\d)/, '')) : k;
  };
  const classes = new Map<string, string[]>();
  return (s) => {
    const c = coarse(s);
    let members = classes.get(c);
    if (!members) classes.set(c, (members = []));
    let i = members.findIndex((m) => compare(m, s) === 0);
    if (i < 0) i = members.push(s) - 1;
    return i === 0 ? c : `${c}\u0000${i}`;
  };
}

/** `en_US` -> `en-US` when ICU (through Intl) knows the locale, else null. */
function toIntlLocale(locale: string): string | null {
  if (!/^[a-z]{2,3}(_[A-Z][a-z]{3})?(_[A-Z]{2})?$/.test(locale)) return null;
  const tag = locale.replace(/_/g, '-');
  try {
    const found = Intl.Collator.supportedLocalesOf([tag], { localeMatcher: 'lookup' });
    return found.length ? tag : null;
  } catch {
    return null;
  }
}

/** The values a query path designates: each value reached, and the elements of arrays reached. */
function queryValues(doc: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    out.push(doc);
    if (Array.isArray(doc)) for (const el of doc) out.push(el);
    return;
  }
  if (Array.isArray(doc)) {
    const key = parts[i];
    if (/^\d+$/.test(key)) queryValues(doc[Number(key)], parts, i + 1, out);
    let any = false;
    for (const el of doc) {
      if (isPlainObject(el)) {
        any = true;
        queryValues(el, parts, i, out);
      }
    }
    if (!any && !/^\d+$/.test(key)) out.push(undefined);
    return;
  }
  if (!isPlainObject(doc)) {
    out.push(undefined);
    return;
  }
  queryValues(doc[parts[i]], parts, i + 1, out);
}

function isRegex(v: unknown): v is RegExp {
  return v instanceof RegExp;
}

function collatedEqual(v: unknown, want: unknown, coll: Collation): boolean {
  if (want === null) return v === null || v === undefined;
  if (v === undefined) return false;
  if (isRegex(want)) return typeof v === 'string' && want.test(v);
  return (
    typeRank(plainNumber(v)) === typeRank(plainNumber(want)) && compareBson(v, want, coll) === 0
  );
}

type QueryOp = (selector: string, value: unknown, options: Options) => (doc: Doc) => boolean;

function valuesOf(doc: Doc, selector: string): unknown[] {
  const out: unknown[] = [];
  queryValues(doc, selector.split('.'), 0, out);
  return out;
}

function rangeOp(test: (c: number) => boolean, orEqualNull: boolean): (coll: Collation) => QueryOp {
  return (coll) => (selector, value) => {
    const bound = plainNumber(value);
    const rank = typeRank(bound);
    // Null is alone in its bracket: $gte/$lte null match as $eq null, $gt/$lt null nothing.
    if (bound === null) return (doc) => orEqualNull && matchesNull(doc, selector);
    return (doc) =>
      valuesOf(doc, selector).some((v) => {
        v = plainNumber(v);
        if (v === undefined || typeRank(v) !== rank) return false;
        return test(compareBson(v, bound, coll));
      });
  };
}

/** Whether the values at `selector` include one of `wanted` (null: as matchesNull). */
function collatedIn(doc: Doc, selector: string, wanted: unknown[], coll: Collation): boolean {
  if (wanted.includes(null) && matchesNull(doc, selector)) return true;
  const others = wanted.filter((w) => w !== null);
  return (
    others.length > 0 &&
    valuesOf(doc, selector).some(
      (v) => v !== undefined && others.some((w) => collatedEqual(v, w, coll)),
    )
  );
}

const COLLATED_QUERY_OPS: Record<string, (coll: Collation) => QueryOp> = {
  $eq: (coll) => (selector, value) => (doc) => collatedIn(doc, selector, [value], coll),
  $ne: (coll) => (selector, value) => (doc) => !collatedIn(doc, selector, [value], coll),
  $in: (coll) => (selector, value) => {
    if (!Array.isArray(value)) throw badValue('$in needs an array');
    return (doc) => collatedIn(doc, selector, value, coll);
  },
  $nin: (coll) => (selector, value) => {
    if (!Array.isArray(value)) throw badValue('$nin needs an array');
    return (doc) => !collatedIn(doc, selector, value, coll);
  },
  $gt: rangeOp((c) => c > 0, false),
  $gte: rangeOp((c) => c >= 0, true),
  $lt: rangeOp((c) => c < 0, false),
  $lte: rangeOp((c) => c <= 0, true),
};

type ExpressionOp = (obj: unknown, expr: unknown, options: Options) => unknown;

/** Aggregation expression comparisons ($eq ... $cmp) with strings compared by the collation. */
function collatedExpressionOps(coll: Collation): Record<string, ExpressionOp> {
  const make =
    (name: string, result: (c: number) => unknown): ExpressionOp =>
    (obj, expr, options) => {
      if (!Array.isArray(expr) || expr.length !== 2) {
        throw new Error(`Expression ${name} takes exactly 2 arguments.`);
      }
      const [a, b] = evalExpr(obj, expr, options) as unknown[];
      return result(compareBson(a, b, coll));
    };
  return {
    $eq: make('$eq', (c) => c === 0),
    $ne: make('$ne', (c) => c !== 0),
    $gt: make('$gt', (c) => c > 0),
    $gte: make('$gte', (c) => c >= 0),
    $lt: make('$lt', (c) => c < 0),
    $lte: make('$lte', (c) => c <= 0),
    $cmp: make('$cmp', (c) => Math.sign(c)),
  };
}

function collatedContext(coll: Collation): Context {
  const ops: Record<string, QueryOp> = {};
  for (const [name, make] of Object.entries(COLLATED_QUERY_OPS)) ops[name] = make(coll);
  return makeContext(coll, {
    query: ops as never,
    expression: collatedExpressionOps(coll) as never,
  });
}

// ---------------------------------------------------------------------------------------------
// What a collation does not reach here is refused under a non-simple collation, rather than
// silently compared binary.

/** Aggregation operators (stages, expressions, accumulators) that would compare binary. */
const UNCOLLATED_AGGREGATION: Record<string, string> = {
  $graphLookup: '$graphLookup',
  $bucket: '$bucket',
  $bucketAuto: '$bucketAuto',
  $setWindowFields: '$setWindowFields',
  $fill: '$fill',
  $in: 'The $in expression',
  $indexOfArray: '$indexOfArray',
  $setEquals: '$setEquals',
  $setIntersection: '$setIntersection',
  $setUnion: '$setUnion',
  $setDifference: '$setDifference',
  $setIsSubset: '$setIsSubset',
  $min: '$min',
  $max: '$max',
  $minN: '$minN',
  $maxN: '$maxN',
  $addToSet: '$addToSet',
  $top: '$top',
  $topN: '$topN',
  $bottom: '$bottom',
  $bottomN: '$bottomN',
  $sortArray: '$sortArray',
};

/** Query operators that would compare binary (none: `$all` is built from the collated `$eq`). */
const UNCOLLATED_QUERY: Record<string, string> = {};

/** Update operators that would compare binary. */
const UNCOLLATED_UPDATE: Record<string, string> = {
  $addToSet: '$addToSet',
  $min: '$min',
  $max: '$max',
};

function refuse(feature: string): never {
  throw unsupported(`${feature} with a non-simple collation`);
}

function walkExpression(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) walkExpression(x);
    return;
  }
  if (!isPlainObject(v)) return;
  for (const [k, x] of Object.entries(v)) {
    if (k in UNCOLLATED_AGGREGATION) refuse(UNCOLLATED_AGGREGATION[k]);
    walkExpression(x);
  }
}

/** Refuses, under a collation, query operators this store would compare binary. */
export function checkCollatedQuery(filter: unknown): void {
  if (Array.isArray(filter)) {
    for (const x of filter) checkCollatedQuery(x);
    return;
  }
  if (!isPlainObject(filter)) return;
  for (const [k, x] of Object.entries(filter)) {
    if (k in UNCOLLATED_QUERY) refuse(UNCOLLATED_QUERY[k]);
    if (k === '$expr') walkExpression(x);
    else checkCollatedQuery(x);
  }
}

/** Refuses, under a collation, pipeline stages and expressions this store would compare binary. */
export function checkCollatedPipeline(pipeline: unknown[]): void {
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) continue;
    for (const [op, spec] of Object.entries(stage)) {
      if (op === '$match') checkCollatedQuery(spec);
      else if (op === '$lookup' && isPlainObject(spec)) {
        if (spec.localField !== undefined) refuse('$lookup with localField/foreignField');
        if (Array.isArray(spec.pipeline)) checkCollatedPipeline(spec.pipeline);
        walkExpression(spec.let);
      } else if (op === '$facet' && isPlainObject(spec)) {
        for (const sub of Object.values(spec)) if (Array.isArray(sub)) checkCollatedPipeline(sub);
      } else if (op === '$unionWith' && isPlainObject(spec) && Array.isArray(spec.pipeline)) {
        checkCollatedPipeline(spec.pipeline);
      } else if (op === '$sort' || op === '$sortByCount' || op === '$group') {
        // Collated here (bson-order.ts, collatedGroup); their expressions may not be.
        walkExpression(spec);
      } else {
        if (op in UNCOLLATED_AGGREGATION) refuse(UNCOLLATED_AGGREGATION[op]);
        walkExpression(spec);
      }
    }
  }
}

/** Refuses, under a collation, update operators this store would apply binary. */
export function checkCollatedUpdate(update: unknown): void {
  if (Array.isArray(update)) {
    checkCollatedPipeline(update);
    return;
  }
  if (!isPlainObject(update)) return;
  for (const [op, spec] of Object.entries(update)) {
    if (op in UNCOLLATED_UPDATE) refuse(`The ${UNCOLLATED_UPDATE[op]} update operator`);
    if (op === '$push' && isPlainObject(spec)) {
      for (const v of Object.values(spec)) {
        if (isPlainObject(v) && '$sort' in v) refuse('$push with $sort');
      }
    }
    if (op === '$pull') checkCollatedQuery(spec);
  }
}
