// BSON value helpers: normalisation of wire values into the in-memory form that mingo can
// query, restoration of number types on the way out, canonical keys for indexes and
// MongoDB's BSON type order for comparisons and sorting.
import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from 'bson';

export type Doc = Record<string, unknown>;
/** A path into a document (object keys and array indexes) whose number must be re-typed. */
export type TypeNote = [path: (string | number)[], kind: 'd' | 'l'];

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

export function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Converts a value deserialised with `promoteValues: false` into the in-memory form:
 * Int32/Double/Long become JS numbers (Long only when it is a safe integer). When `notes` is
 * given, records where an integral double or a Long was turned into a number so that the
 * original BSON type can be restored when the document is sent back out.
 */
export function normalize(v: unknown, notes?: TypeNote[], path?: (string | number)[]): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Int32) return v.value;
  if (v instanceof Double) {
    const n = v.value;
    if (notes && Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX && !Object.is(n, -0)) {
      notes.push([path ? path.slice() : [], 'd']);
    }
    return n;
  }
  if (v instanceof Long) {
    if (
      v.lessThanOrEqual(Long.fromNumber(Number.MAX_SAFE_INTEGER)) &&
      v.greaterThanOrEqual(Long.fromNumber(Number.MIN_SAFE_INTEGER))
    ) {
      if (notes) notes.push([path ? path.slice() : [], 'l']);
      return v.toNumber();
    }
    return v;
  }
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      if (notes) {
        const p = path ? path : [];
        p.push(i);
        out[i] = normalize(v[i], notes, p);
        p.pop();
      } else out[i] = normalize(v[i]);
    }
    return out;
  }
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) {
      if (notes) {
        const p = path ? path : [];
        p.push(k);
        out[k] = normalize(v[k], notes, p);
        p.pop();
      } else out[k] = normalize(v[k]);
    }
    return out;
  }
  return v;
}

/** Restores integral doubles and int64s recorded in `notes` (copy-on-write along the paths). */
export function withTypes(doc: Doc, notes: TypeNote[] | undefined): Doc {
  if (!notes || notes.length === 0) return doc;
  const root: Doc = { ...doc };
  for (const [path, kind] of notes) {
    if (path.length === 0) continue;
    let parent: Record<string | number, unknown> | unknown[] = root;
    let ok = true;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i];
      const child: unknown = (parent as Record<string | number, unknown>)[key];
      if (Array.isArray(child)) {
        const copy: unknown[] = child.slice();
        (parent as Record<string | number, unknown>)[key] = copy;
        parent = copy;
      } else if (isPlainObject(child)) {
        const copy = { ...child };
        (parent as Record<string | number, unknown>)[key] = copy;
        parent = copy;
      } else {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const last = path[path.length - 1];
    const val = (parent as Record<string | number, unknown>)[last];
    if (typeof val === 'number' && Number.isInteger(val)) {
      (parent as Record<string | number, unknown>)[last] =
        kind === 'd' ? new Double(val) : Long.fromNumber(val);
    }
  }
  return root;
}

/** Keeps only the notes whose path still holds an integral number in `doc`. */
export function pruneNotes(doc: Doc, notes: TypeNote[] | undefined): TypeNote[] | undefined {
  if (!notes || notes.length === 0) return undefined;
  const kept = notes.filter(([path]) => {
    let cur: unknown = doc;
    for (const k of path) {
      if (cur === null || typeof cur !== 'object') return false;
      cur = (cur as Record<string | number, unknown>)[k];
    }
    return typeof cur === 'number' && Number.isInteger(cur);
  });
  return kept.length ? kept : undefined;
}

/** Deep copy of plain objects, arrays and dates; BSON value objects are immutable and shared. */
export function cloneDeep<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(cloneDeep) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) out[k] = cloneDeep(v[k]);
    return out as T;
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Canonical keys: equal (by MongoDB semantics) values get equal strings. Used for `_id` and
// index lookups.

export function keyOf(v: unknown): string {
  if (v === undefined || v === null) return 'z';
  switch (typeof v) {
    case 'number':
      return Object.is(v, -0) ? 'n0' : 'n' + v;
    case 'string':
      return 's' + v;
    case 'boolean':
      return v ? 'b1' : 'b0';
    case 'bigint':
      return 'n' + v.toString();
  }
  if (v instanceof ObjectId) return 'o' + v.toHexString();
  if (v instanceof Date) return 'd' + v.getTime();
  if (v instanceof Long) return 'n' + v.toString();
  if (v instanceof Decimal128) {
    const n = Number(v.toString());
    return Number.isFinite(n) && Number.isSafeInteger(n) ? 'n' + n : 'm' + v.toString();
  }
  if (Array.isArray(v)) return 'a[' + v.map(keyOf).join(',') + ']';
  if (isPlainObject(v)) {
    let s = 'x{';
    for (const k of Object.keys(v)) s += JSON.stringify(k) + ':' + keyOf(v[k]) + ',';
    return s + '}';
  }
  if (v instanceof Binary) return 'B' + v.sub_type + ':' + Buffer.from(v.buffer).toString('base64');
  if (v instanceof RegExp) return 'r/' + v.source + '/' + v.flags;
  if (v instanceof BSONRegExp) return 'r/' + v.pattern + '/' + v.options;
  if (v instanceof Timestamp) return 't' + v.toString();
  if (v instanceof MinKey) return '<min>';
  if (v instanceof MaxKey) return '<max>';
  if (v instanceof BSONSymbol) return 's' + v.valueOf();
  if (v instanceof Code) return 'c' + v.code;
  return '?' + String(v);
}

// ---------------------------------------------------------------------------------------------
// BSON type order (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/)

export function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 2;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
  }
  if (v instanceof MinKey) return 1;
  if (v instanceof Long || v instanceof Decimal128) return 3;
  if (v instanceof BSONSymbol) return 4;
  if (Array.isArray(v)) return 6;
  if (v instanceof Binary) return 7;
  if (v instanceof ObjectId) return 8;
  if (v instanceof Date) return 10;
  if (v instanceof Timestamp) return 11;
  if (v instanceof RegExp || v instanceof BSONRegExp) return 12;
  if (v instanceof MaxKey) return 13;
  return 5;
}

function toNum(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Decimal128) return Number(v.toString());
  return NaN;
}

function cmpPrim(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1:
    case 2:
    case 13:
      return 0;
    case 3: {
      if (a instanceof Long && b instanceof Long) return a.compare(b);
      const x = toNum(a);
      const y = toNum(b);
      if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
      if (Number.isNaN(y)) return 1;
      return cmpPrim(x, y);
    }
    case 4:
      return cmpPrim(String(a), String(b));
    case 5: {
      const ka = Object.keys(a as Doc);
      const kb = Object.keys(b as Doc);
      for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
        const va = (a as Doc)[ka[i]];
        const vb = (b as Doc)[kb[i]];
        const t = cmpPrim(typeRank(va), typeRank(vb));
        if (t) return t;
        const k = cmpPrim(ka[i], kb[i]);
        if (k) return k;
        const c = compareValues(va, vb);
        if (c) return c;
      }
      return cmpPrim(ka.length, kb.length);
    }
    case 6: {
      const xa = a as unknown[];
      const xb = b as unknown[];
      for (let i = 0; i < Math.min(xa.length, xb.length); i++) {
        const c = compareValues(xa[i], xb[i]);
        if (c) return c;
      }
      return cmpPrim(xa.length, xb.length);
    }
    case 7: {
      const ba = a as Binary;
      const bb = b as Binary;
      if (ba.length() !== bb.length()) return cmpPrim(ba.length(), bb.length());
      if (ba.sub_type !== bb.sub_type) return cmpPrim(ba.sub_type, bb.sub_type);
      return Buffer.compare(Buffer.from(ba.buffer), Buffer.from(bb.buffer));
    }
    case 8:
      return cmpPrim((a as ObjectId).toHexString(), (b as ObjectId).toHexString());
    case 9:
      return cmpPrim(Number(a), Number(b));
    case 10:
      return cmpPrim((a as Date).getTime(), (b as Date).getTime());
    case 11:
      return (a as Timestamp).compare(b as Timestamp);
    default:
      return cmpPrim(String(a), String(b));
  }
}

const MISSING_ARRAY_SENTINEL = Symbol('empty-array');

/** The values found at a dotted path, descending through arrays as MongoDB does. */
export function pathValues(doc: unknown, path: string): unknown[] {
  const parts = path.split('.');
  const out: unknown[] = [];
  collect(doc, parts, 0, out);
  return out;
}

function collect(cur: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    if (Array.isArray(cur)) {
      if (cur.length === 0) out.push(MISSING_ARRAY_SENTINEL);
      for (const el of cur) out.push(el);
    } else out.push(cur);
    return;
  }
  if (cur === null || typeof cur !== 'object') {
    out.push(undefined);
    return;
  }
  if (Array.isArray(cur)) {
    const key = parts[i];
    if (/^\d+$/.test(key)) {
      collect(cur[Number(key)], parts, i + 1, out);
      return;
    }
    if (cur.length === 0) {
      out.push(undefined);
      return;
    }
    for (const el of cur) {
      if (el !== null && typeof el === 'object' && !Array.isArray(el)) collect(el, parts, i, out);
      else out.push(undefined);
    }
    return;
  }
  if (!isPlainObject(cur)) {
    out.push(undefined);
    return;
  }
  collect(cur[parts[i]], parts, i + 1, out);
}

export function isEmptyArrayMarker(v: unknown): boolean {
  return v === MISSING_ARRAY_SENTINEL;
}

/**
 * The sort key of a document for one field: min element ascending, max descending, by `compare`
 * (the store's value order; bson-order.ts passes its collation-aware one).
 */
export function sortKey(
  doc: Doc,
  path: string,
  dir: number,
  compare: (a: unknown, b: unknown) => number = compareValues,
): unknown {
  const vals = pathValues(doc, path);
  if (vals.length === 1 && !isEmptyArrayMarker(vals[0])) return vals[0];
  let best: unknown = undefined;
  let first = true;
  for (const v of vals) {
    if (isEmptyArrayMarker(v)) continue;
    if (first) {
      best = v;
      first = false;
    } else {
      const c = compare(v, best);
      if ((dir > 0 && c < 0) || (dir < 0 && c > 0)) best = v;
    }
  }
  return best;
}

export function makeSorter(sort: Record<string, number>): (a: Doc, b: Doc) => number {
  const fields = Object.entries(sort).map(([k, d]) => [k, Number(d) < 0 ? -1 : 1] as const);
  return (a, b) => {
    for (const [k, d] of fields) {
      const c = compareValues(sortKey(a, k, d), sortKey(b, k, d));
      if (c) return c * d;
    }
    return 0;
  };
}

/** Reads a dotted path (no array descent), for simple cases like `_id`. */
export function getPath(doc: Doc, path: string): unknown {
  if (!path.includes('.')) return doc[path];
  let cur: unknown = doc;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Doc)[k];
  }
  return cur;
}

/**
 * Whether `{ path: null }` matches a document, as MongoDB 5.0 to 7.0 match it: the path is
 * missing (a non-object, non-array value on the way included), or its value is null or an
 * array holding null; through an array on the way, at least one object element must match
 * (an array with no object elements, an empty one included, does not).
 */
export function matchesNull(doc: unknown, path: string): boolean {
  return nullAt(doc, path.split('.'), 0);
}

function nullAt(cur: unknown, parts: string[], i: number): boolean {
  if (i === parts.length) {
    if (cur === null || cur === undefined) return true;
    return Array.isArray(cur) && cur.some((el) => el === null || el === undefined);
  }
  if (Array.isArray(cur)) {
    const key = parts[i];
    if (/^\d+$/.test(key)) {
      const n = Number(key);
      return n < cur.length ? nullAt(cur[n], parts, i + 1) : true;
    }
    return cur.some((el) => isPlainObject(el) && nullAt(el, parts, i));
  }
  if (!isPlainObject(cur)) return true;
  return nullAt(cur[parts[i]], parts, i + 1);
}
