// Matching as the unified test format's "Evaluating Matches" section says: root-level documents
// (commands, replies, returned documents, cursor results' documents) may carry extra fields,
// nested ones may not; numbers compare by value; the special operators `$$exists`, `$$type`,
// `$$unsetOrMatches`, `$$matchesEntity`, `$$matchesHexBytes`, `$$lte` and `$$sessionLsid`.
// A difference is thrown as a Mismatch naming where it is.
import {
  Binary,
  BSON,
  BSONRegExp,
  Decimal128,
  type Document,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from 'mongodb';

/** A document of a spec file, or one the driver returned. */
export type Doc = Record<string, unknown>;
const { EJSON } = BSON;

/**
 * Why a test failed, as the report prints it: an expectation not met, or a part of the format
 * this runner does not implement. Any other error escaping a test is a runner error.
 */
export class Mismatch extends Error {}

/** What matching needs besides the two values: the test's entities (for `$$matchesEntity`). */
export interface MatchEnv {
  entities: Map<string, unknown>;
}

/** A value as a failure reason shows it: relaxed Extended JSON, at most 200 characters. */
export function describe(v: unknown): string {
  try {
    return EJSON.stringify(v as Document, { relaxed: true }).slice(0, 200);
  } catch {
    return String(v);
  }
}

/** A plain document (not an array, a BSON value or a driver object). */
export function isDoc(v: unknown): v is Doc {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.getPrototypeOf(v) === Object.prototype
  );
}

function asNumber(v: unknown): number | bigint | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return v;
  if (v instanceof Int32 || v instanceof Double) return v.valueOf();
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Decimal128) return Number(v.toString());
  return null;
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  double: (v) => typeof v === 'number' || v instanceof Double,
  string: (v) => typeof v === 'string',
  object: (v) => isDoc(v),
  array: (v) => Array.isArray(v),
  binData: (v) => v instanceof Binary,
  objectId: (v) => v instanceof ObjectId,
  bool: (v) => typeof v === 'boolean',
  date: (v) => v instanceof Date,
  null: (v) => v === null,
  regex: (v) => v instanceof RegExp || v instanceof BSONRegExp,
  int: (v) => (typeof v === 'number' && Number.isInteger(v)) || v instanceof Int32,
  timestamp: (v) => v instanceof Timestamp,
  long: (v) => (typeof v === 'number' && Number.isInteger(v)) || v instanceof Long,
  decimal: (v) => v instanceof Decimal128,
  minKey: (v) => v instanceof MinKey,
  maxKey: (v) => v instanceof MaxKey,
  number: (v) => asNumber(v) !== null,
};

function isSpecialOperator(v: unknown): v is Doc {
  return isDoc(v) && Object.keys(v).length === 1 && Object.keys(v)[0].startsWith('$$');
}

/**
 * The unified format's matching rules: root-level documents may carry extra fields, nested ones
 * may not; numbers compare by value; `$$exists`, `$$type`, `$$unsetOrMatches`, `$$matchesEntity`,
 * `$$matchesHexBytes`, `$$lte` and `$$sessionLsid` operators.
 */
export function match(
  expected: unknown,
  actual: unknown,
  env: MatchEnv,
  where: string,
  root: boolean,
) {
  if (isSpecialOperator(expected)) {
    matchOperator(expected, actual, env, where, root);
    return;
  }
  if (isDoc(expected)) {
    if (!isDoc(actual) && !(actual instanceof Object && !Array.isArray(actual))) {
      throw new Mismatch(`${where}: expected a document, got ${describe(actual)}`);
    }
    const act = actual as Doc;
    for (const [k, ev] of Object.entries(expected)) {
      if (isSpecialOperator(ev)) {
        const op = Object.keys(ev)[0];
        if (op === '$$exists') {
          const has = Object.prototype.hasOwnProperty.call(act, k) && act[k] !== undefined;
          if (has !== ev.$$exists)
            throw new Mismatch(`${where}.${k}: expected ${ev.$$exists ? 'present' : 'absent'}`);
          continue;
        }
        if (op === '$$unsetOrMatches' && act[k] === undefined) continue;
      }
      if (!(k in act) || act[k] === undefined) {
        throw new Mismatch(`${where}.${k}: missing (expected ${describe(ev)})`);
      }
      match(ev, act[k], env, `${where}.${k}`, false);
    }
    if (!root) {
      for (const k of Object.keys(act)) {
        if (act[k] !== undefined && !(k in expected)) {
          throw new Mismatch(`${where}: unexpected field ${k}: ${describe(act[k])}`);
        }
      }
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) throw new Mismatch(`${where}: expected an array`);
    if (actual.length !== expected.length) {
      throw new Mismatch(
        `${where}: expected ${expected.length} elements, got ${actual.length}: ${describe(actual)}`,
      );
    }
    expected.forEach((e, i) => match(e, actual[i], env, `${where}[${i}]`, false));
    return;
  }
  const en = asNumber(expected);
  if (en !== null) {
    const an = asNumber(actual);
    if (an === null || Number(an) !== Number(en)) {
      throw new Mismatch(`${where}: expected ${String(en)}, got ${describe(actual)}`);
    }
    return;
  }
  if (!sameScalar(expected, actual)) {
    throw new Mismatch(`${where}: expected ${describe(expected)}, got ${describe(actual)}`);
  }
}

/** Operations returning a cursor: each document of the result is a root-level document. */
const CURSOR_OPERATIONS = new Set(['find', 'aggregate', 'listCollections', 'listIndexes']);

export function matchResult(op: Doc, actual: unknown, env: MatchEnv): void {
  const expected = op.expectResult;
  if (CURSOR_OPERATIONS.has(op.name as string) && Array.isArray(expected)) {
    if (!Array.isArray(actual)) throw new Mismatch('result: expected an array');
    if (actual.length !== expected.length) {
      throw new Mismatch(
        `result: expected ${expected.length} documents, got ${actual.length}: ${describe(actual)}`,
      );
    }
    expected.forEach((e, i) => match(e, actual[i], env, `result[${i}]`, true));
    return;
  }
  match(expected, actual, env, 'result', true);
}

function sameScalar(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof ObjectId && b instanceof ObjectId) return a.equals(b);
  if (a instanceof Binary && b instanceof Binary)
    return a.sub_type === b.sub_type && Buffer.compare(a.buffer, b.buffer) === 0;
  if (a instanceof Timestamp && b instanceof Timestamp) return a.equals(b);
  if (
    (a instanceof RegExp || a instanceof BSONRegExp) &&
    (b instanceof RegExp || b instanceof BSONRegExp)
  ) {
    const pa = a instanceof RegExp ? a.source : a.pattern;
    const pb = b instanceof RegExp ? b.source : b.pattern;
    const fa = [...(a instanceof RegExp ? a.flags : a.options)].sort().join('');
    const fb = [...(b instanceof RegExp ? b.flags : b.options)].sort().join('');
    return pa === pb && fa === fb;
  }
  if (a instanceof MinKey && b instanceof MinKey) return true;
  if (a instanceof MaxKey && b instanceof MaxKey) return true;
  return false;
}

function matchOperator(
  expected: Doc,
  actual: unknown,
  env: MatchEnv,
  where: string,
  root: boolean,
): void {
  const op = Object.keys(expected)[0];
  const arg = expected[op];
  switch (op) {
    case '$$exists':
      if ((actual !== undefined) !== arg)
        throw new Mismatch(`${where}: expected ${arg ? 'present' : 'absent'}`);
      return;
    case '$$type': {
      const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
      if (!types.some((t) => TYPE_CHECKS[t]?.(actual)))
        throw new Mismatch(`${where}: expected type ${types.join('|')}, got ${describe(actual)}`);
      return;
    }
    case '$$unsetOrMatches':
      if (actual === undefined) return;
      match(arg, actual, env, where, root);
      return;
    case '$$matchesEntity':
      match(env.entities.get(arg as string), actual, env, where, false);
      return;
    case '$$matchesHexBytes': {
      const hex = actual instanceof Binary ? Buffer.from(actual.buffer).toString('hex') : null;
      if (hex === null || hex.toLowerCase() !== String(arg).toLowerCase())
        throw new Mismatch(`${where}: expected bytes ${String(arg)}`);
      return;
    }
    case '$$lte': {
      const a = asNumber(actual);
      if (a === null || Number(a) > Number(asNumber(arg)))
        throw new Mismatch(`${where}: expected <= ${String(arg)}, got ${describe(actual)}`);
      return;
    }
    case '$$sessionLsid':
      // Sessions are not modelled by this runner; any lsid is accepted.
      return;
    default:
      throw new Mismatch(`${where}: unsupported special operator ${op}`);
  }
}
