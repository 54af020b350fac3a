// Query matching: filters (a fast path for equality, mingo for the rest), collations, the record
// scan with sort/skip/limit served by indexes where possible, and projections.
import { ObjectId } from 'bson';
import { Query } from 'mingo/query';
import { QUERY_OPTIONS } from '../mingo-context';
import { type Collection, type Rec, badValue, unsupported } from '../engine';
import {
  isEmptyArrayMarker,
  isPlainObject,
  keyOf,
  makeSorter,
  pathValues,
  type Doc,
} from '../values';

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

export function checkCollation(cmd: Doc): void {
  const c = cmd.collation;
  if (c === undefined || c === null) return;
  if (!isPlainObject(c)) throw badValue('collation must be an object');
  const locale = c.locale;
  if (locale === 'simple') return;
  throw unsupported(
    `Collation (locale ${JSON.stringify(locale)}, strength ${String(c.strength ?? 3)}) ` +
      '(store lower-cased copies of case-insensitive fields instead)',
  );
}

export interface Matcher {
  test(doc: Doc): boolean;
}

function isSimpleScalar(v: unknown): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v);
  }
  return v instanceof ObjectId || v instanceof Date;
}

/**
 * Fast matcher for the most common filters: top-level fields compared for equality (or `$in`)
 * with strings, numbers, booleans, null, ObjectIds or dates. Same semantics as MongoDB: arrays
 * match when an element is equal, null matches missing fields. Anything else goes to mingo.
 */
export function simpleMatcher(filter: Doc): Matcher | null {
  const conds: [string, Set<string>][] = [];
  for (const [field, cond] of Object.entries(filter)) {
    if (field.startsWith('$')) return null;
    let values: unknown[];
    if (isSimpleScalar(cond)) values = [cond];
    else if (isPlainObject(cond)) {
      const ks = Object.keys(cond);
      if (ks.length !== 1) return null;
      if (ks[0] === '$eq' && isSimpleScalar(cond.$eq)) values = [cond.$eq];
      else if (ks[0] === '$in' && Array.isArray(cond.$in) && cond.$in.every(isSimpleScalar))
        values = cond.$in;
      else return null;
    } else return null;
    conds.push([field, new Set(values.map(keyOf))]);
  }
  return {
    test(doc: Doc): boolean {
      for (const [field, keys] of conds) {
        const vals = field.includes('.') ? pathValues(doc, field) : topValues(doc[field]);
        let hit = false;
        for (const v of vals) {
          if (!isEmptyArrayMarker(v) && keys.has(keyOf(v))) {
            hit = true;
            break;
          }
        }
        if (!hit) return false;
      }
      return true;
    },
  };
}

function topValues(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [v];
  return v.length ? v : [];
}

export function compileQuery(filter: Doc): Matcher | null {
  if (Object.keys(filter).length === 0) return null;
  const simple = simpleMatcher(filter);
  if (simple) return simple;
  checkUnsupported(filter);
  try {
    return new Query(filter, QUERY_OPTIONS);
  } catch (e) {
    throw badValue(`invalid query: ${(e as Error).message}`);
  }
}

/** Matching records in natural or index order, applying sort/skip/limit. */
export function findRecords(
  coll: Collection | undefined,
  filter: Doc,
  opts: { sort?: Doc; skip?: number; limit?: number } = {},
): [string, Rec][] {
  if (!coll) return [];
  const q = compileQuery(filter);
  const skip = opts.skip ?? 0;
  const limit = opts.limit ?? 0;
  const sort = opts.sort && Object.keys(opts.sort).length ? opts.sort : undefined;
  if (sort && '$natural' in sort) {
    const dir = Number(sort.$natural) < 0 ? -1 : 1;
    let all = [...coll.candidates(filter)].filter(([, r]) => !q || q.test(r.doc));
    if (dir < 0) all = all.reverse();
    return limit ? all.slice(skip, skip + limit) : all.slice(skip);
  }
  if (sort) {
    for (const v of Object.values(sort)) {
      if (isPlainObject(v)) throw unsupported('Sorting by $meta');
    }
    // Walk the sort field's index (bounded by a range on that field, if any) unless an
    // equality index already narrowed the candidates to a few records.
    const viaIndex = coll.equalityIds(filter) ? null : coll.findIndexForSort(sort);
    if (viaIndex) {
      const field = viaIndex.ix.fields[0][0];
      const entries =
        coll.rangePlan(filter, field)?.entries ?? viaIndex.ix.orderedIds(coll.records)!;
      const out: [string, Rec][] = [];
      const want = limit ? skip + limit : Infinity;
      const n = entries.length;
      for (let i = 0; i < n && out.length < want; i++) {
        const e = entries[viaIndex.dir > 0 ? i : n - 1 - i];
        const rec = coll.records.get(e.id);
        if (rec && (!q || q.test(rec.doc))) out.push([e.id, rec]);
      }
      return out.slice(skip);
    }
    const matched: [string, Rec][] = [];
    for (const e of coll.candidates(filter)) if (!q || q.test(e[1].doc)) matched.push(e);
    const sorter = makeSorter(sort as Record<string, number>);
    matched.sort((a, b) => sorter(a[1].doc, b[1].doc));
    return limit ? matched.slice(skip, skip + limit) : matched.slice(skip);
  }
  const out: [string, Rec][] = [];
  let skipped = 0;
  for (const e of coll.candidates(filter)) {
    if (q && !q.test(e[1].doc)) continue;
    if (skipped < skip) {
      skipped++;
      continue;
    }
    out.push(e);
    if (limit && out.length >= limit) break;
  }
  return out;
}

export function project(docs: Doc[], projection: Doc | undefined): Doc[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  checkUnsupported(projection);
  for (const v of Object.values(projection)) {
    if (isPlainObject(v) && '$meta' in v) throw unsupported('$meta projection');
  }
  try {
    return new Query({}, QUERY_OPTIONS).find<Doc>(docs, projection).all();
  } catch (e) {
    throw badValue(`invalid projection: ${(e as Error).message}`);
  }
}
