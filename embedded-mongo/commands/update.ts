// Updates: operator, replacement and pipeline updates applied to a copy of a record (a fast path for
// plain $set/$unset/$inc, mingo for the rest), and upserts.
import { updateOne as mingoUpdateOne } from 'mingo/updater';

import { checkCollatedUpdate } from '../collation';
import type { Collection, Rec } from '../engine';
import { failedToParse, MongoError } from '../errors';
import { cloneDeep, type Doc, isPlainObject, keyOf, pruneNotes, type TypeNote } from '../values';
import { type CmdContext, outDoc, storedDoc, validateForStorage, withId } from './context';
import { checkReplacementNames, checkUpdatePaths, takeDollarSets } from './field-names';
import { replacingPipelineUpdate } from './pipeline-update';
import { checkUnsupported, mingoOptions, type QueryEnv } from './query';

/** Whether `u` is an operator update (its first field is `$`-prefixed), else a replacement. */
export function isOperatorUpdate(u: Doc): boolean {
  const keys = Object.keys(u);
  if (keys.length === 0) return false;
  if (!keys[0].startsWith('$')) {
    checkReplacementNames(u);
    return false;
  }
  const plain = keys.find((k) => !k.startsWith('$'));
  if (plain !== undefined) {
    throw failedToParse(
      `Unknown modifier: ${plain}. Expected a valid update modifier or pipeline-style update specified as an array`,
    );
  }
  return true;
}

const SUPPORTED_UPDATE_OPS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$push',
  '$pull',
  '$pullAll',
  '$addToSet',
  '$pop',
  '$currentDate',
  '$setOnInsert',
  '$bit',
]);

/** Applies an update (operators, replacement or pipeline) to a copy of `rec`. */
export function applyUpdate(
  rec: Rec,
  update: Doc | Doc[],
  opts: { arrayFilters?: Doc[]; filter?: Doc; inserting: boolean; env?: QueryEnv },
): { rec: Rec; modified: boolean } {
  if (opts.env?.collation) checkCollatedUpdate(update);
  const oldDoc = rec.doc;
  const replaced = Array.isArray(update) ? replacingPipelineUpdate(rec, update) : null;
  if (replaced) return replaced;
  let next: Doc;
  let modified: boolean;
  let newNotes: TypeNote[] | undefined = rec.notes;
  if (Array.isArray(update)) {
    checkUnsupported(update);
    const copy = [cloneDeep(oldDoc)];
    try {
      const r = mingoUpdateOne(
        copy,
        {},
        update as never,
        { cloneMode: 'none' },
        mingoOptions(opts.env),
      );
      modified = r.modifiedCount > 0;
    } catch (e) {
      throw failedToParse(`invalid pipeline update: ${(e as Error).message}`);
    }
    next = copy[0];
    // A pipeline whose result lacks _id (e.g. $replaceRoot) keeps the document's _id.
    if (next._id === undefined && oldDoc._id !== undefined) next = { _id: oldDoc._id, ...next };
  } else if (isOperatorUpdate(update)) {
    for (const op of Object.keys(update)) {
      if (!SUPPORTED_UPDATE_OPS.has(op)) throw failedToParse(`Unknown modifier: ${op}`);
    }
    checkUpdatePaths(update, opts.inserting);
    const { $setOnInsert, ...rest } = update;
    const mod: Doc = rest;
    if (opts.inserting && $setOnInsert && isPlainObject($setOnInsert)) {
      mod.$set = { ...(isPlainObject(mod.$set) ? mod.$set : {}), ...$setOnInsert };
    }
    const dollarSets = opts.inserting ? takeDollarSets(mod) : null;
    next = cloneDeep(oldDoc);
    modified = false;
    const fast = opts.arrayFilters?.length ? null : fastUpdate(next, mod);
    if (fast !== null) modified = fast;
    else if (Object.keys(mod).length > 0) {
      const positional = Object.values(mod).some(
        (v) => isPlainObject(v) && Object.keys(v).some((k) => /\.\$(\.|$)/.test(k)),
      );
      const docs = [next];
      try {
        const r = mingoUpdateOne(
          docs,
          positional && opts.filter ? opts.filter : {},
          mod as never,
          { cloneMode: 'copy', arrayFilters: opts.arrayFilters },
          mingoOptions(opts.env),
        );
        modified = r.modifiedCount > 0;
      } catch (e) {
        const m = (e as Error).message;
        if (/immutable field '_id'/.test(m)) throw new MongoError(66, 'ImmutableField', m);
        throw failedToParse(m);
      }
      next = docs[0];
    }
    if (dollarSets) for (const [k, v] of Object.entries(dollarSets)) next[k] = cloneDeep(v);
    if (opts.inserting) modified = true;
  } else {
    // Replacement: keep the existing _id.
    const replacement = storedDoc(update, 'replacement document');
    if (replacement.doc._id !== undefined && keyOf(replacement.doc._id) !== keyOf(oldDoc._id)) {
      if (oldDoc._id !== undefined) {
        throw new MongoError(
          66,
          'ImmutableField',
          `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${String(replacement.doc._id)}`,
        );
      }
    }
    next = { _id: oldDoc._id, ...replacement.doc };
    if (next._id === undefined) delete next._id;
    newNotes = replacement.notes;
    modified = opts.inserting || keyOf(next) !== keyOf(oldDoc);
  }
  if (oldDoc._id !== undefined && keyOf(next._id) !== keyOf(oldDoc._id)) {
    throw new MongoError(
      66,
      'ImmutableField',
      `Performing an update on the path '_id' would modify the immutable field '_id'`,
    );
  }
  return { rec: { doc: next, notes: pruneNotes(next, newNotes) }, modified };
}

const FAST_OPS = new Set(['$set', '$unset', '$inc']);

/**
 * `$set`, `$unset` and `$inc` on plain (non-array, non-positional) paths, applied in place to
 * `doc`; returns whether the document changed, or null to let mingo handle the update.
 */
export function fastUpdate(doc: Doc, mod: Doc): boolean | null {
  const paths: string[] = [];
  for (const [op, spec] of Object.entries(mod)) {
    if (!FAST_OPS.has(op) || !isPlainObject(spec)) return null;
    for (const p of Object.keys(spec)) {
      if (p === '' || p === '_id' || p.startsWith('_id.') || p.includes('$')) return null;
      if (p.split('.').some((part) => part === '' || /^\d+$/.test(part))) return null;
      paths.push(p);
    }
  }
  // Overlapping paths (a and a.b) are conflicts in MongoDB; let mingo report them.
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1] || sorted[i].startsWith(sorted[i - 1] + '.')) return null;
  }
  // Check every path resolves through plain objects before changing anything.
  for (const p of paths) {
    let cur: unknown = doc;
    const parts = p.split('.');
    for (let i = 0; i < parts.length - 1; i++) {
      cur = (cur as Doc)[parts[i]];
      if (cur === undefined) break;
      if (!isPlainObject(cur)) return null;
    }
  }
  const inc = mod.$inc as Doc | undefined;
  if (inc) {
    for (const [p, by] of Object.entries(inc)) {
      if (typeof by !== 'number') return null;
      const cur = getPathPlain(doc, p);
      if (cur !== undefined && typeof cur !== 'number') {
        throw new MongoError(
          14,
          'TypeMismatch',
          `Cannot apply $inc to a value of non-numeric type. {_id: ${String(doc._id)}} has the field '${p}' of non-numeric type ${typeof cur}`,
        );
      }
    }
  }
  let modified = false;
  for (const [p, v] of Object.entries((mod.$set as Doc | undefined) ?? {})) {
    const { parent, key } = parentOf(doc, p, true)!;
    if (
      !(key in parent) ||
      keyOf(parent[key]) !== keyOf(v) ||
      typeOfTag(parent[key]) !== typeOfTag(v)
    ) {
      parent[key] = cloneDeep(v);
      modified = true;
    }
  }
  for (const p of Object.keys((mod.$unset as Doc | undefined) ?? {})) {
    const loc = parentOf(doc, p, false);
    if (loc && loc.key in loc.parent) {
      delete loc.parent[loc.key];
      modified = true;
    }
  }
  for (const [p, by] of Object.entries(inc ?? {})) {
    const { parent, key } = parentOf(doc, p, true)!;
    const cur = parent[key];
    parent[key] = (typeof cur === 'number' ? cur : 0) + (by as number);
    if (cur === undefined || by !== 0) modified = true;
  }
  return modified;
}

function typeOfTag(v: unknown): string {
  return v === null ? 'null' : typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v;
}

function getPathPlain(doc: Doc, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function parentOf(doc: Doc, path: string, create: boolean): { parent: Doc; key: string } | null {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    let next = cur[parts[i]];
    if (next === undefined) {
      if (!create) return null;
      next = cur[parts[i]] = {};
    }
    cur = next as Doc;
  }
  return { parent: cur, key: parts[parts.length - 1] };
}

/** The document an upsert starts from: equality fields of the filter. */
function upsertSeed(filter: Doc): Doc {
  const seed: Doc = {};
  const paths: string[] = [];
  const visit = (f: Doc) => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) {
        for (const sub of v) if (isPlainObject(sub)) visit(sub);
        continue;
      }
      if (k.startsWith('$')) continue;
      let val: unknown = v;
      if (isPlainObject(v)) {
        const ks = Object.keys(v);
        if (ks.length && ks.every((x) => x.startsWith('$'))) {
          if (ks.length === 1 && ks[0] === '$eq') val = v.$eq;
          else continue;
        }
      }
      if (val instanceof RegExp) continue;
      checkSeedPath(paths, k);
      setDotted(seed, k, cloneDeep(val));
    }
  };
  visit(filter);
  return seed;
}

/** MongoDB refuses to seed an upsert from two equalities on one path (or a path and its prefix). */
function checkSeedPath(paths: string[], path: string): void {
  for (const p of paths) {
    if (p === path) {
      throw new MongoError(
        54,
        'NotSingleValueField',
        `cannot infer query fields to set, path '${path}' is matched twice`,
      );
    }
    if (path.startsWith(p + '.') || p.startsWith(path + '.')) {
      const [a, b] = p.length < path.length ? [p, path] : [path, p];
      throw new MongoError(
        54,
        'NotSingleValueField',
        `cannot infer query fields to set, both paths '${a}' and '${b}' are matched`,
      );
    }
  }
  paths.push(path);
}

function setDotted(doc: Doc, path: string, v: unknown): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const nx = cur[parts[i]];
    if (!isPlainObject(nx)) cur[parts[i]] = {};
    cur = cur[parts[i]] as Doc;
  }
  cur[parts[parts.length - 1]] = v;
}

export function doUpsert(
  coll: Collection,
  filter: Doc,
  update: Doc | Doc[],
  arrayFilters: Doc[] | undefined,
  ctx: CmdContext,
  env?: QueryEnv,
): Rec {
  let seedRec: Rec;
  if (!Array.isArray(update) && !isOperatorUpdate(update)) {
    const repl = storedDoc(update, 'replacement document');
    const seed = upsertSeed(filter);
    seedRec = {
      doc: { ...(seed._id !== undefined ? { _id: seed._id } : {}), ...repl.doc },
      notes: repl.notes,
    };
  } else {
    const base = { rec: { doc: upsertSeed(filter) }, modified: true };
    const res = applyUpdate(base.rec, update, { arrayFilters, inserting: true, env });
    seedRec = res.rec;
  }
  const doc = withId(seedRec.doc);
  validateForStorage(doc);
  const rec: Rec = { doc, notes: pruneNotes(doc, seedRec.notes) };
  coll.insert(rec);
  ctx.log.push({ k: 'p', db: coll.db, c: coll.name, d: outDoc(rec) });
  return rec;
}

export function updateRecord(
  coll: Collection,
  id: string,
  old: Rec,
  next: Rec,
  ctx: CmdContext,
): void {
  validateForStorage(next.doc);
  coll.replace(id, old, next);
  ctx.log.push({ k: 'p', db: coll.db, c: coll.name, d: outDoc(next) });
}
