// A fast matcher for the filters lists send most (simple collation): equality and $in on
// fields, regular expressions on top-level fields (a search box), and $and/$or of those. The
// same semantics as MongoDB; a document where this matcher cannot decide alone (a field that
// holds a regular expression or a symbol, which a regex may match by equality) is tested by
// mingo. Any other filter goes to mingo entirely (compileQuery).
import { BSONRegExp, BSONSymbol, ObjectId } from 'bson';
import { Query } from 'mingo/query';

import { QUERY_OPTIONS } from '../mingo-context';
import {
  type Doc,
  isEmptyArrayMarker,
  isPlainObject,
  keyOf,
  matchesNull,
  pathValues,
} from '../values';

export interface Matcher {
  test(doc: Doc): boolean;
}

/** true, false, or undefined: mingo decides. */
type Pred = (doc: Doc) => boolean | undefined;

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

function topValues(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [v];
  return v.length ? v : [];
}

function equality(field: string, values: unknown[]): Pred {
  // null is matched by matchesNull (missing paths); the other values by the values found.
  const wantsNull = values.includes(null);
  const keys = new Set(values.filter((v) => v !== null).map(keyOf));
  const only = values.length === 1 && typeof values[0] === 'string' ? values[0] : null;
  const general: Pred = (doc) => {
    if (wantsNull && matchesNull(doc, field)) return true;
    if (!keys.size) return false;
    const vals = field.includes('.') ? pathValues(doc, field) : topValues(doc[field]);
    for (const v of vals) {
      if (v !== undefined && !isEmptyArrayMarker(v) && keys.has(keyOf(v))) return true;
    }
    return false;
  };
  if (only === null || field.includes('.')) return general;
  // One string on a top-level field (`{ status: 'active' }`): a comparison, no key built.
  return (doc) => {
    const v = doc[field];
    return typeof v === 'string' ? v === only : general(doc);
  };
}

/** The regular expression of a condition (`/x/i` or `{ $regex, $options }`), or null. */
function regexOf(cond: unknown): RegExp | null {
  let re: RegExp;
  if (cond instanceof RegExp) re = cond;
  else if (isPlainObject(cond) && '$regex' in cond) {
    const ks = Object.keys(cond);
    if (!ks.every((k) => k === '$regex' || k === '$options')) return null;
    const options = cond.$options ?? '';
    if (typeof options !== 'string' || !/^[imsu]*$/.test(options)) return null;
    if (cond.$regex instanceof RegExp && !options) re = cond.$regex;
    else if (typeof cond.$regex === 'string') re = new RegExp(cond.$regex, options);
    else return null;
  } else return null;
  // A stateful (global or sticky) expression would remember lastIndex between documents.
  return re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, '')) : re;
}

function regexTest(field: string, re: RegExp): Pred {
  const one = (v: unknown): boolean | undefined => {
    if (typeof v === 'string') return re.test(v);
    if (v instanceof RegExp || v instanceof BSONRegExp || v instanceof BSONSymbol) return undefined;
    return false;
  };
  return (doc) => {
    const v = doc[field];
    if (typeof v === 'string') return re.test(v); // the common case, first
    if (!Array.isArray(v)) return one(v);
    let unsure = false;
    for (const el of v) {
      const r = one(el);
      if (r) return true;
      if (r === undefined) unsure = true;
    }
    return unsure ? undefined : false;
  };
}

function compile(filter: Doc, depth: number): Pred[] | null {
  const preds: Pred[] = [];
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$or' || field === '$and') {
      if (!Array.isArray(cond) || !cond.length || depth > 2) return null;
      const parts: Pred[][] = [];
      for (const member of cond) {
        const p = isPlainObject(member) ? compile(member, depth + 1) : null;
        if (!p) return null;
        parts.push(p);
      }
      preds.push(field === '$or' ? anyOf(parts) : allOf(parts.flat()));
      continue;
    }
    if (field.startsWith('$')) return null;
    if (isSimpleScalar(cond)) {
      preds.push(equality(field, [cond]));
      continue;
    }
    const re = field.includes('.') ? null : regexOf(cond);
    if (re) {
      preds.push(regexTest(field, re));
      continue;
    }
    if (!isPlainObject(cond)) return null;
    const ks = Object.keys(cond);
    if (ks.length !== 1) return null;
    if (ks[0] === '$eq' && isSimpleScalar(cond.$eq)) preds.push(equality(field, [cond.$eq]));
    else if (ks[0] === '$in' && Array.isArray(cond.$in) && cond.$in.every(isSimpleScalar))
      preds.push(equality(field, cond.$in));
    else return null;
  }
  return preds;
}

function allOf(preds: Pred[]): Pred {
  // One condition needs no wrapper (a search's `$or` branches are one regex each).
  if (preds.length === 1) return preds[0];
  return (doc) => {
    let unsure = false;
    for (const p of preds) {
      const r = p(doc);
      if (r === false) return false;
      if (r === undefined) unsure = true;
    }
    return unsure ? undefined : true;
  };
}

function anyOf(branches: Pred[][]): Pred {
  const all = branches.map(allOf);
  if (all.length === 2) {
    // A search box's `{ $or: [{ name: re }, { email: re }] }`, tested per record of a walk.
    const [a, b] = all;
    return (doc) => {
      const x = a(doc);
      if (x === true) return true;
      const y = b(doc);
      if (y === true) return true;
      return x === undefined || y === undefined ? undefined : false;
    };
  }
  return (doc) => {
    let unsure = false;
    for (const p of all) {
      const r = p(doc);
      if (r === true) return true;
      if (r === undefined) unsure = true;
    }
    return unsure ? undefined : false;
  };
}

/** The fast matcher of a filter, or null when mingo must match it. */
export function simpleMatcher(filter: Doc): Matcher | null {
  const preds = compile(filter, 0);
  if (!preds) return null;
  const test = allOf(preds);
  let slow: Query | null = null;
  return {
    test(doc: Doc): boolean {
      const r = test(doc);
      if (r !== undefined) return r;
      slow ??= new Query(filter, QUERY_OPTIONS);
      return slow.test(doc);
    },
  };
}
