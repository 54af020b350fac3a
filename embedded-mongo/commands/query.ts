// Query matching: filters (a fast path for equality, mingo for the rest), collations, the record
// scan with sort/skip/limit served by indexes where possible, and projections.
import { Aggregator } from 'mingo/aggregator';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';

import { sortBson } from '../bson-order';
import { checkCollatedQuery, type Collation, parseCollation } from '../collation';
import type { Collection, Rec } from '../engine';
import { badValue, MongoError, unsupported } from '../errors';
import { QUERY_OPTIONS } from '../mingo-context';
import { type Doc, isPlainObject } from '../values';
import { type Matcher, simpleMatcher } from './fast-match';
import { type LazyTarget, openLazyFind } from './lazy-scan';
import { runCount, runFind, type ScanStats } from './scan';

const UNSUPPORTED_QUERY_OPS: Record<string, string> = {
  $text: '$text search',
  $near: 'Geospatial query $near',
  $nearSphere: 'Geospatial query $nearSphere',
  $geoWithin: 'Geospatial query $geoWithin',
  $geoIntersects: 'Geospatial query $geoIntersects',
  $where: '$where (server-side JavaScript)',
  $function: '$function (server-side JavaScript)',
  $accumulator: '$accumulator (server-side JavaScript)',
};

export function checkUnsupported(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) checkUnsupported(x);
    return;
  }
  if (!isPlainObject(v)) return;
  for (const k of Object.keys(v)) {
    if (k in UNSUPPORTED_QUERY_OPS) throw unsupported(UNSUPPORTED_QUERY_OPS[k]);
    checkUnsupported(v[k]);
  }
}

/**
 * What a command's reads are evaluated with besides the filter: its collation (null: simple,
 * binary) and its `let` variables (`$$name` in `$expr`, pipelines and pipeline updates).
 */
export interface QueryEnv {
  collation: Collation | null;
  variables?: Doc;
}

export const SIMPLE_ENV: QueryEnv = { collation: null };

/**
 * The environment of a command (or of one update/delete statement): `statement.collation`
 * (else the collection's default collation) and the command's `let` document, whose values are
 * expressions evaluated once, as MongoDB does.
 */
export function readEnv(
  statement: Doc,
  letDoc?: unknown,
  defaultCollation?: Collation | null,
): QueryEnv {
  const collation =
    statement.collation === undefined || statement.collation === null
      ? (defaultCollation ?? null)
      : parseCollation(statement.collation);
  if (letDoc === undefined || letDoc === null) return collation ? { collation } : SIMPLE_ENV;
  if (!isPlainObject(letDoc)) {
    throw new MongoError(14, 'TypeMismatch', "BSON field 'let' is the wrong type, expected object");
  }
  return { collation, variables: evaluateLet(letDoc) };
}

function evaluateLet(letDoc: Doc): Doc {
  for (const name of Object.keys(letDoc)) {
    if (!/^[a-z\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*$/.test(name)) {
      throw failedToParseName(name);
    }
  }
  checkUnsupported(letDoc);
  try {
    const [out] = new Aggregator([{ $replaceWith: letDoc }], QUERY_OPTIONS).run<Doc>([{}]);
    return out ?? {};
  } catch (e) {
    throw badValue(`invalid let expression: ${(e as Error).message}`);
  }
}

function failedToParseName(name: string): MongoError {
  return new MongoError(
    16866,
    'Location16866',
    `'${name}' starts with an invalid character for a user variable name`,
  );
}

/** mingo options for an environment: the collation's context, the `let` variables. */
export function mingoOptions(env: QueryEnv = SIMPLE_ENV): Partial<Options> {
  if (env === SIMPLE_ENV || (!env.collation && !env.variables)) return QUERY_OPTIONS;
  return {
    ...QUERY_OPTIONS,
    ...(env.collation ? { context: env.collation.context } : {}),
    ...(env.variables ? { variables: env.variables } : {}),
  };
}

export { type Matcher, simpleMatcher } from './fast-match';

export function compileQuery(filter: Doc, env: QueryEnv = SIMPLE_ENV): Matcher | null {
  if (Object.keys(filter).length === 0) return null;
  const simple = env.collation ? null : simpleMatcher(filter);
  if (simple) return simple;
  checkUnsupported(filter);
  if (env.collation) checkCollatedQuery(filter);
  try {
    return new Query(filter, mingoOptions(env));
  } catch (e) {
    throw badValue(`invalid query: ${(e as Error).message}`);
  }
}

/** Matching records in natural or index order, applying sort/skip/limit. */
export function findRecords(
  coll: Collection | undefined,
  filter: Doc,
  opts: { sort?: Doc; skip?: number; limit?: number; stats?: ScanStats } = {},
  env: QueryEnv = SIMPLE_ENV,
): [string, Rec][] {
  if (!coll) return [];
  const q = compileQuery(filter, env);
  const skip = opts.skip ?? 0;
  const limit = opts.limit ?? 0;
  const sort = opts.sort && Object.keys(opts.sort).length ? opts.sort : undefined;
  if (env.collation) return collatedScan(coll, filter, q, sort, skip, limit, env.collation);
  if (sort && '$natural' in sort) {
    const dir = Number(sort.$natural) < 0 ? -1 : 1;
    let all = [...coll.records].filter(([, r]) => !q || q.test(r.doc));
    if (opts.stats) opts.stats.docsExamined += coll.records.size;
    if (dir < 0) all = all.reverse();
    return limit ? all.slice(skip, skip + limit) : all.slice(skip);
  }
  if (sort) {
    for (const v of Object.values(sort)) {
      if (isPlainObject(v)) throw unsupported('Sorting by $meta');
    }
  }
  return runFind(coll, filter, q, sort, skip, limit, opts.stats);
}

/**
 * A find's matching records produced as they are read (a cursor's batches: lazy-scan.ts), or
 * null when they must be read at once (a collation, a `$natural` or in-memory sort): then
 * `findRecords`.
 */
export function openFindRecords(
  target: LazyTarget,
  filter: Doc,
  opts: { sort?: Doc; skip?: number; limit?: number },
  env: QueryEnv = SIMPLE_ENV,
): Iterator<[string, Rec]> | null {
  if (env.collation) return null;
  const sort = opts.sort && Object.keys(opts.sort).length ? opts.sort : undefined;
  if (sort && ('$natural' in sort || Object.values(sort).some(isPlainObject))) return null;
  const q = compileQuery(filter, env);
  return openLazyFind(target, filter, q, sort, opts.skip ?? 0, opts.limit ?? 0);
}

/** The number of records matching a filter (no list of them is built). */
export function countRecords(
  coll: Collection | undefined,
  filter: Doc,
  env: QueryEnv = SIMPLE_ENV,
  stats?: ScanStats,
): number {
  if (!coll) return 0;
  if (Object.keys(filter).length === 0) return runCount(coll, filter, null, stats);
  if (env.collation) return findRecords(coll, filter, {}, env).length;
  return runCount(coll, filter, compileQuery(filter, env), stats);
}

/**
 * A scan under a non-simple collation: the records an index with the same collation finds for
 * an equality or $in, else every record (other indexes hold other keys); sorted with strings
 * compared by the collation.
 */
function collatedScan(
  coll: Collection,
  filter: Doc,
  q: Matcher | null,
  sort: Doc | undefined,
  skip: number,
  limit: number,
  collation: Collation,
): [string, Rec][] {
  const matched: [string, Rec][] = [];
  // An index with the same collation serves equality and $in.
  const ids = coll.equalityIds(filter, collation.spec);
  if (ids) {
    for (const id of ids) {
      const rec = coll.records.get(id);
      if (rec && (!q || q.test(rec.doc))) matched.push([id, rec]);
    }
  } else for (const e of coll.records) if (!q || q.test(e[1].doc)) matched.push(e);
  if (sort) {
    for (const v of Object.values(sort)) {
      if (isPlainObject(v)) throw unsupported('Sorting by $meta');
    }
    if ('$natural' in sort) {
      if (Number(sort.$natural) < 0) matched.reverse();
    } else {
      try {
        sortBson(matched, (e) => e[1].doc, sort, collation);
      } catch (e) {
        throw badValue((e as Error).message);
      }
    }
  }
  return limit ? matched.slice(skip, skip + limit) : matched.slice(skip);
}

export function project(
  docs: Doc[],
  projection: Doc | undefined,
  env: QueryEnv = SIMPLE_ENV,
): Doc[] {
  const one = projector(projection, env);
  if (!one) return docs;
  if (!one.batch) return docs.map(one.doc);
  return one.batch(docs);
}

/**
 * A projection prepared once for the documents of a cursor, read one at a time (lazy finds):
 * null when there is none; throws as `project` does for one it refuses.
 */
export function projector(
  projection: Doc | undefined,
  env: QueryEnv = SIMPLE_ENV,
): { doc: (d: Doc) => Doc; batch?: (docs: Doc[]) => Doc[] } | null {
  if (!projection || Object.keys(projection).length === 0) return null;
  const fields = topLevelInclusion(projection);
  if (fields) {
    return {
      doc: (d) => {
        const out: Doc = {};
        for (const k of Object.keys(d)) if (fields.has(k)) out[k] = d[k];
        return out;
      },
    };
  }
  checkUnsupported(projection);
  for (const v of Object.values(projection)) {
    if (isPlainObject(v) && '$meta' in v) throw unsupported('$meta projection');
  }
  const batch = (docs: Doc[]): Doc[] => {
    try {
      return new Query({}, mingoOptions(env)).find<Doc>(docs, projection).all();
    } catch (e) {
      throw badValue(`invalid projection: ${(e as Error).message}`);
    }
  };
  batch([]);
  return { doc: (d) => batch([d])[0]!, batch };
}

/**
 * The fields of an inclusion projection of top-level fields (`{ a: 1, b: 1 }`, `_id` included
 * unless `_id: 0`), which needs no projection engine: the included values, in document order.
 */
function topLevelInclusion(projection: Doc): Set<string> | null {
  const fields = new Set<string>(['_id']);
  let included = 0;
  for (const [k, v] of Object.entries(projection)) {
    if (!k || k.includes('.') || k.startsWith('$')) return null;
    if (k === '_id' && (v === 0 || v === false)) fields.delete('_id');
    else if (v === 1 || v === true) {
      fields.add(k);
      if (k !== '_id') included++;
    } else return null;
  }
  return included ? fields : null;
}
