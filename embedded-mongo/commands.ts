// Command handlers with MongoDB's reply shapes.
import { Long, ObjectId } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { Query } from 'mingo/query';
import { updateOne as mingoUpdateOne } from 'mingo/updater';
import type { Options } from 'mingo/types';
import { ProcessingMode } from 'mingo/core';
import { QUERY_OPTIONS } from './mingo-context';
import {
  type Collection,
  MongoError,
  type Store,
  badValue,
  failedToParse,
  unsupported,
  type IndexSpec,
  type Op,
  type Rec,
} from './engine';
import {
  cloneDeep,
  isPlainObject,
  keyOf,
  makeSorter,
  normalize,
  pathValues,
  isEmptyArrayMarker,
  pruneNotes,
  withTypes,
  type Doc,
  type TypeNote,
} from './values';

export const MAX_BSON_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH = 100_000;
const BATCH_BYTES = 8 * 1024 * 1024;

interface CursorState {
  ns: string;
  docs: Doc[];
  pos: number;
  touched: number;
}

/** Idle cursors are closed after 10 minutes, as in MongoDB. */
const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;
let lastCursorSweep = Date.now();

function sweepCursors(cursors: Map<string, CursorState>): void {
  const now = Date.now();
  if (now - lastCursorSweep < 60_000) return;
  lastCursorSweep = now;
  for (const [id, c] of cursors) if (now - c.touched > CURSOR_TIMEOUT_MS) cursors.delete(id);
}

export interface ServerState {
  store: Store;
  cursors: Map<string, CursorState>;
  nextCursorId: bigint;
  /** Persists the ops of one command; resolves once they are durable. */
  commit(ops: Op[]): Promise<void>;
}

export interface CmdContext {
  state: ServerState;
  db: string;
  connectionId: number;
  log: Op[];
}

type Handler = (cmd: Doc, ctx: CmdContext) => Doc | Promise<Doc>;

// ---------------------------------------------------------------------------------------------
// Helpers

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

function checkUnsupported(v: unknown): void {
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

function checkCollation(cmd: Doc): void {
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

interface Matcher {
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

function compileQuery(filter: Doc): Matcher | null {
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

function asDoc(v: unknown, what: string): Doc {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw new MongoError(14, 'TypeMismatch', `${what} must be an object`);
  return v;
}

function collName(cmd: Doc, key: string): string {
  const n = cmd[key];
  if (typeof n !== 'string' || !n) {
    throw new MongoError(73, 'InvalidNamespace', `collection name must be a non-empty string`);
  }
  return n;
}

function toNumber(v: unknown, def = 0): number {
  if (v === undefined || v === null) return def;
  if (typeof v === 'number') return v;
  if (v instanceof Long) return v.toNumber();
  throw badValue(`expected a number, got ${String(v)}`);
}

/** Matching records in natural or index order, applying sort/skip/limit. */
function findRecords(
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

function project(docs: Doc[], projection: Doc | undefined): Doc[] {
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

function outDoc(rec: Rec): Doc {
  return withTypes(rec.doc, rec.notes);
}

function makeCursor(
  ctx: CmdContext,
  ns: string,
  docs: Doc[],
  batchSize: number | undefined,
  single = false,
): Doc {
  const first = takeBatch(docs, 0, batchSize ?? 101);
  let id = Long.ZERO;
  if (first.length < docs.length && !single) {
    sweepCursors(ctx.state.cursors);
    const cid = ctx.state.nextCursorId++;
    ctx.state.cursors.set(cid.toString(), { ns, docs, pos: first.length, touched: Date.now() });
    id = Long.fromBigInt(cid);
  }
  return { cursor: { firstBatch: first, id, ns }, ok: 1 };
}

function takeBatch(docs: Doc[], pos: number, batchSize: number): Doc[] {
  const out: Doc[] = [];
  let bytes = 0;
  const max = batchSize > 0 ? batchSize : Infinity;
  for (let i = pos; i < docs.length && out.length < max; i++) {
    // Rough size bound to keep replies under the message size.
    bytes += estimateSize(docs[i]);
    if (out.length > 0 && bytes > BATCH_BYTES) break;
    out.push(docs[i]);
  }
  return out;
}

function estimateSize(d: unknown): number {
  if (d === null || d === undefined) return 1;
  if (typeof d === 'string') return d.length + 8;
  if (typeof d !== 'object') return 12;
  if (Array.isArray(d)) return d.reduce<number>((s, x) => s + estimateSize(x) + 4, 8);
  if (isPlainObject(d)) {
    let s = 8;
    for (const k of Object.keys(d)) s += k.length + 2 + estimateSize(d[k]);
    return s;
  }
  if (d instanceof Uint8Array) return d.length + 8;
  return 24;
}

function storedDoc(raw: unknown, what = 'document'): Rec {
  if (!isPlainObject(raw)) throw badValue(`${what} must be an object`);
  const notes: TypeNote[] = [];
  const doc = normalize(raw, notes) as Doc;
  return { doc, notes: notes.length ? notes : undefined };
}

function validateForStorage(doc: Doc): void {
  if (Array.isArray(doc._id)) throw badValue(`The '_id' value cannot be of type array`);
  if (doc._id instanceof RegExp) throw badValue(`can't use a regex for _id`);
  for (const k of Object.keys(doc)) {
    if (k.startsWith('$')) throw badValue(`Document can't have $ prefixed field names: ${k}`);
  }
}

/** Moves `_id` first, generating one when missing (as mongod does). */
function withId(doc: Doc): Doc {
  if (doc._id === undefined) return { _id: new ObjectId(), ...doc };
  if (Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

function writeError(index: number, e: unknown): Doc {
  if (e instanceof MongoError) {
    return { index, code: e.code, codeName: e.codeName, errmsg: e.message, ...e.extra };
  }
  return { index, code: 1, codeName: 'InternalError', errmsg: (e as Error).message };
}

// ---------------------------------------------------------------------------------------------
// Updates

function isOperatorUpdate(u: Doc): boolean {
  const keys = Object.keys(u);
  if (keys.length === 0) return false;
  const ops = keys.filter((k) => k.startsWith('$')).length;
  if (ops && ops !== keys.length) {
    throw failedToParse('update document mixes update operators and plain fields');
  }
  return ops > 0;
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
function applyUpdate(
  rec: Rec,
  update: Doc | Doc[],
  opts: { arrayFilters?: Doc[]; filter?: Doc; inserting: boolean },
): { rec: Rec; modified: boolean } {
  const oldDoc = rec.doc;
  let next: Doc;
  let modified: boolean;
  let newNotes: TypeNote[] | undefined = rec.notes;
  if (Array.isArray(update)) {
    checkUnsupported(update);
    const copy = [cloneDeep(oldDoc)];
    try {
      const r = mingoUpdateOne(copy, {}, update as never, { cloneMode: 'none' }, QUERY_OPTIONS);
      modified = r.modifiedCount > 0;
    } catch (e) {
      throw failedToParse(`invalid pipeline update: ${(e as Error).message}`);
    }
    next = copy[0];
  } else if (isOperatorUpdate(update)) {
    for (const op of Object.keys(update)) {
      if (!SUPPORTED_UPDATE_OPS.has(op)) throw failedToParse(`Unknown modifier: ${op}`);
    }
    const { $setOnInsert, ...rest } = update;
    const mod: Doc = rest;
    if (opts.inserting && $setOnInsert && isPlainObject($setOnInsert)) {
      mod.$set = { ...(isPlainObject(mod.$set) ? mod.$set : {}), ...$setOnInsert };
    }
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
          QUERY_OPTIONS,
        );
        modified = r.modifiedCount > 0;
      } catch (e) {
        const m = (e as Error).message;
        if (/immutable field '_id'/.test(m)) throw new MongoError(66, 'ImmutableField', m);
        throw failedToParse(m);
      }
      next = docs[0];
    }
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
      setDotted(seed, k, cloneDeep(val));
    }
  };
  visit(filter);
  return seed;
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

function doUpsert(
  coll: Collection,
  filter: Doc,
  update: Doc | Doc[],
  arrayFilters: Doc[] | undefined,
  ctx: CmdContext,
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
    const res = applyUpdate(base.rec, update, { arrayFilters, inserting: true });
    seedRec = res.rec;
  }
  const doc = withId(seedRec.doc);
  validateForStorage(doc);
  const rec: Rec = { doc, notes: pruneNotes(doc, seedRec.notes) };
  coll.insert(rec);
  ctx.log.push({ k: 'p', db: coll.db, c: coll.name, d: outDoc(rec) });
  return rec;
}

function updateRecord(coll: Collection, id: string, old: Rec, next: Rec, ctx: CmdContext): void {
  validateForStorage(next.doc);
  coll.replace(id, old, next);
  ctx.log.push({ k: 'p', db: coll.db, c: coll.name, d: outDoc(next) });
}

// ---------------------------------------------------------------------------------------------
// Handlers

function hello(_cmd: Doc, ctx: CmdContext): Doc {
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: MAX_BSON_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: MAX_WRITE_BATCH,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}

function insert(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'insert');
  const docs = cmd.documents;
  if (!Array.isArray(docs)) throw failedToParse('insert.documents must be an array');
  if (docs.length > MAX_WRITE_BATCH) throw badValue('too many documents in one batch');
  const ordered = cmd.ordered !== false;
  const coll = ctx.state.store.ensureColl(ctx.db, name, ctx.log);
  const writeErrors: Doc[] = [];
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    try {
      const rec = storedDoc(docs[i]);
      rec.doc = withId(rec.doc);
      validateForStorage(rec.doc);
      coll.insert(rec);
      ctx.log.push({ k: 'p', db: ctx.db, c: name, d: outDoc(rec) });
      n++;
    } catch (e) {
      writeErrors.push(writeError(i, e));
      if (ordered) break;
    }
  }
  const reply: Doc = { n, ok: 1 };
  if (writeErrors.length) reply.writeErrors = writeErrors;
  return reply;
}

function update(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'update');
  const updates = cmd.updates;
  if (!Array.isArray(updates)) throw failedToParse('update.updates must be an array');
  const ordered = cmd.ordered !== false;
  const store = ctx.state.store;
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const writeErrors: Doc[] = [];
  for (let i = 0; i < updates.length; i++) {
    try {
      const spec = normalize(updates[i]) as Doc;
      const rawU = (updates[i] as Doc).u;
      const filter = asDoc(spec.q, 'q');
      const u = spec.u;
      if (!isPlainObject(u) && !Array.isArray(u))
        throw failedToParse('update.u must be an object or pipeline');
      checkCollation(spec);
      const arrayFilters = Array.isArray(spec.arrayFilters)
        ? (spec.arrayFilters as Doc[])
        : undefined;
      // Keep the wire types of a replacement document.
      const updateDoc = !Array.isArray(u) && !isOperatorUpdate(u) ? (rawU as Doc) : u;
      const coll = store.getColl(ctx.db, name);
      const matches = findRecords(coll, filter, { limit: spec.multi ? 0 : 1 });
      if (matches.length === 0) {
        if (spec.upsert) {
          const c = store.ensureColl(ctx.db, name, ctx.log);
          const rec = doUpsert(c, filter, updateDoc as Doc, arrayFilters, ctx);
          upserted.push({ index: i, _id: rec.doc._id });
          n++;
        }
        continue;
      }
      if (spec.multi && !Array.isArray(u) && !isOperatorUpdate(u)) {
        throw failedToParse('multi update is not supported for replacement-style update');
      }
      for (const [id, rec] of matches) {
        const res = applyUpdate(rec, updateDoc as Doc, { arrayFilters, filter, inserting: false });
        n++;
        if (res.modified) {
          updateRecord(coll!, id, rec, res.rec, ctx);
          nModified++;
        }
      }
    } catch (e) {
      writeErrors.push(writeError(i, e));
      if (ordered) break;
    }
  }
  const reply: Doc = { n, nModified, ok: 1 };
  if (upserted.length) reply.upserted = upserted;
  if (writeErrors.length) reply.writeErrors = writeErrors;
  return reply;
}

function del(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'delete');
  const deletes = cmd.deletes;
  if (!Array.isArray(deletes)) throw failedToParse('delete.deletes must be an array');
  const ordered = cmd.ordered !== false;
  const coll = ctx.state.store.getColl(ctx.db, name);
  let n = 0;
  const writeErrors: Doc[] = [];
  for (let i = 0; i < deletes.length; i++) {
    try {
      const spec = deletes[i] as Doc;
      checkCollation(spec);
      const limit = toNumber(spec.limit, 0);
      const matches = findRecords(coll, asDoc(spec.q, 'q'), { limit: limit === 1 ? 1 : 0 });
      for (const [id] of matches) {
        const rec = coll!.remove(id);
        if (rec) {
          ctx.log.push({ k: 'd', db: ctx.db, c: name, id: withTypes(rec.doc, rec.notes)._id });
          n++;
        }
      }
    } catch (e) {
      writeErrors.push(writeError(i, e));
      if (ordered) break;
    }
  }
  const reply: Doc = { n, ok: 1 };
  if (writeErrors.length) reply.writeErrors = writeErrors;
  return reply;
}

function find(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'find');
  checkCollation(cmd);
  if (cmd.tailable) throw unsupported('Tailable cursors');
  const coll = ctx.state.store.getColl(ctx.db, name);
  let limit = toNumber(cmd.limit, 0);
  let single = cmd.singleBatch === true;
  if (limit < 0) {
    limit = -limit;
    single = true;
  }
  const recs = findRecords(coll, asDoc(cmd.filter, 'filter'), {
    sort: cmd.sort ? asDoc(cmd.sort, 'sort') : undefined,
    skip: toNumber(cmd.skip, 0),
    limit,
  });
  const docs = project(
    recs.map(([, r]) => outDoc(r)),
    cmd.projection ? asDoc(cmd.projection, 'projection') : undefined,
  );
  const bs = cmd.batchSize === undefined ? undefined : toNumber(cmd.batchSize);
  return makeCursor(ctx, `${ctx.db}.${name}`, docs, bs === 0 ? undefined : bs, single);
}

function getMore(cmd: Doc, ctx: CmdContext): Doc {
  const id = cmd.getMore instanceof Long ? cmd.getMore.toBigInt() : BigInt(toNumber(cmd.getMore));
  const name = collName(cmd, 'collection');
  const cur = ctx.state.cursors.get(id.toString());
  if (!cur) throw new MongoError(43, 'CursorNotFound', `cursor id ${id} not found`);
  if (cur.ns !== `${ctx.db}.${name}`) {
    throw new MongoError(
      13,
      'Unauthorized',
      `cursor ${id} belongs to ${cur.ns}, not ${ctx.db}.${name}`,
    );
  }
  const bs = cmd.batchSize === undefined ? 0 : toNumber(cmd.batchSize);
  const batch = takeBatch(cur.docs, cur.pos, bs);
  cur.pos += batch.length;
  cur.touched = Date.now();
  let outId = Long.fromBigInt(id);
  if (cur.pos >= cur.docs.length) {
    ctx.state.cursors.delete(id.toString());
    outId = Long.ZERO;
  }
  return { cursor: { nextBatch: batch, id: outId, ns: cur.ns }, ok: 1 };
}

function killCursors(cmd: Doc, ctx: CmdContext): Doc {
  const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const raw of ids) {
    const id = raw instanceof Long ? raw : Long.fromNumber(Number(raw));
    if (ctx.state.cursors.delete(id.toBigInt().toString())) killed.push(id);
    else notFound.push(id);
  }
  return {
    cursorsKilled: killed,
    cursorsNotFound: notFound,
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
}

function findAndModify(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, Object.keys(cmd)[0]);
  checkCollation(cmd);
  const store = ctx.state.store;
  const filter = asDoc(cmd.query, 'query');
  const sort = cmd.sort ? asDoc(cmd.sort, 'sort') : undefined;
  const fields = cmd.fields ? asDoc(cmd.fields, 'fields') : undefined;
  const coll = store.getColl(ctx.db, name);
  const [match] = findRecords(coll, filter, { sort, limit: 1 });
  const arrayFilters = Array.isArray(cmd.arrayFilters) ? (cmd.arrayFilters as Doc[]) : undefined;
  const shape = (rec: Rec | undefined): Doc | null =>
    rec ? project([outDoc(rec)], fields)[0] : null;
  if (cmd.remove) {
    if (cmd.update !== undefined)
      throw failedToParse('Cannot specify both an update and remove=true');
    if (!match) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
    const [id, rec] = match;
    coll!.remove(id);
    ctx.log.push({ k: 'd', db: ctx.db, c: name, id: outDoc(rec)._id });
    return { lastErrorObject: { n: 1 }, value: shape(rec), ok: 1 };
  }
  const upd = cmd.update;
  if (!isPlainObject(upd) && !Array.isArray(upd)) {
    throw failedToParse('Either an update or remove=true must be specified');
  }
  if (!match) {
    if (!cmd.upsert)
      return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    const c = store.ensureColl(ctx.db, name, ctx.log);
    const rec = doUpsert(c, filter, upd as Doc, arrayFilters, ctx);
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: rec.doc._id },
      value: cmd.new ? shape(rec) : null,
      ok: 1,
    };
  }
  const [id, rec] = match;
  const res = applyUpdate(rec, upd as Doc, { arrayFilters, filter, inserting: false });
  if (res.modified) updateRecord(coll!, id, rec, res.rec, ctx);
  return {
    lastErrorObject: { n: 1, updatedExisting: true },
    value: shape(cmd.new ? res.rec : rec),
    ok: 1,
  };
}

function count(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'count');
  checkCollation(cmd);
  const coll = ctx.state.store.getColl(ctx.db, name);
  const filter = asDoc(cmd.query, 'query');
  const skip = toNumber(cmd.skip, 0);
  const limit = Math.abs(toNumber(cmd.limit, 0));
  let n: number;
  if (!coll) n = 0;
  else if (Object.keys(filter).length === 0) n = coll.records.size;
  else n = findRecords(coll, filter).length;
  n = Math.max(0, n - skip);
  if (limit) n = Math.min(n, limit);
  return { n, ok: 1 };
}

function distinct(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'distinct');
  checkCollation(cmd);
  const key = cmd.key;
  if (typeof key !== 'string') throw failedToParse('distinct.key must be a string');
  const coll = ctx.state.store.getColl(ctx.db, name);
  const seen = new Map<string, unknown>();
  for (const [, rec] of findRecords(coll, asDoc(cmd.query, 'query'))) {
    for (const v of pathValues(outDoc(rec), key)) {
      if (v === undefined || isEmptyArrayMarker(v)) continue;
      const k = keyOf(v);
      if (!seen.has(k)) seen.set(k, v);
    }
  }
  return { values: [...seen.values()], ok: 1 };
}

const UNSUPPORTED_STAGES: Record<string, string> = {
  $changeStream: 'Change streams ($changeStream)',
  $geoNear: 'Geospatial aggregation ($geoNear)',
  $search: 'Atlas Search ($search)',
  $searchMeta: 'Atlas Search ($searchMeta)',
  $vectorSearch: 'Vector search ($vectorSearch)',
  $out: 'The $out stage',
  $merge: 'The $merge stage',
  $collStats: '$collStats',
  $indexStats: '$indexStats',
  $currentOp: '$currentOp',
  $listSessions: '$listSessions',
};

function aggregate(cmd: Doc, ctx: CmdContext): Doc {
  const target = cmd.aggregate;
  checkCollation(cmd);
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline))
    throw failedToParse("'pipeline' option must be specified as an array");
  for (const stage of pipeline) {
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
      throw failedToParse('A pipeline stage specification object must contain exactly one field.');
    }
    const op = Object.keys(stage)[0];
    if (op in UNSUPPORTED_STAGES) throw unsupported(UNSUPPORTED_STAGES[op]);
  }
  checkUnsupported(pipeline);
  if (cmd.explain) throw unsupported('explain');
  const store = ctx.state.store;
  const ns = `${ctx.db}.${target === 1 ? '$cmd.aggregate' : String(target)}`;
  if (target === 1) throw unsupported('Database-level aggregation');
  if (typeof target !== 'string') throw failedToParse('aggregate must name a collection');
  const coll = store.getColl(ctx.db, target);
  // Run leading $match / $sort / $skip / $limit ourselves so indexes can serve them.
  let i = 0;
  let filter: Doc = {};
  let sort: Doc | undefined;
  let skip = 0;
  let limit = 0;
  if (i < pipeline.length && '$match' in pipeline[i]) {
    filter = asDoc(pipeline[i].$match, '$match');
    i++;
  }
  if (i < pipeline.length && '$sort' in pipeline[i]) {
    sort = asDoc(pipeline[i].$sort, '$sort');
    i++;
  }
  while (i < pipeline.length && ('$skip' in pipeline[i] || '$limit' in pipeline[i])) {
    if ('$skip' in pipeline[i]) {
      if (limit) break;
      skip += toNumber(pipeline[i].$skip);
    } else {
      const l = toNumber(pipeline[i].$limit);
      limit = limit ? Math.min(limit, l) : l;
    }
    i++;
  }
  const rest = pipeline.slice(i) as Doc[];
  // countDocuments: [$match, ($skip), ($limit), {$group: {_id: 1, n: {$sum: 1}}}]
  if (rest.length === 1 && isCountGroup(rest[0])) {
    const g = rest[0].$group as Doc;
    const outKey = Object.keys(g).find((k) => k !== '_id')!;
    let n = !coll
      ? 0
      : Object.keys(filter).length === 0 && !sort
        ? coll.records.size
        : findRecords(coll, filter).length;
    n = Math.max(0, n - skip);
    if (limit) n = Math.min(n, limit);
    const docs = n > 0 ? [{ _id: g._id, [outKey]: n }] : [];
    return makeCursor(ctx, ns, docs, batchSizeOf(cmd));
  }
  const recs = findRecords(coll, filter, { sort, skip, limit });
  let docs = recs.map(([, r]) => outDoc(r));
  if (rest.length) {
    const resolver = (name: string): Doc[] => {
      const c = store.getColl(ctx.db, name);
      return c ? [...c.records.values()].map(outDoc) : [];
    };
    const options: Partial<Options> = {
      ...QUERY_OPTIONS,
      processingMode: ProcessingMode.CLONE_INPUT,
      collectionResolver: resolver,
    };
    try {
      docs = new Aggregator(rest, options).run<Doc>(docs);
    } catch (e) {
      if (e instanceof MongoError) throw e;
      throw failedToParse(`aggregation failed: ${(e as Error).message}`);
    }
  }
  return makeCursor(ctx, ns, docs, batchSizeOf(cmd));
}

function batchSizeOf(cmd: Doc): number | undefined {
  const c = cmd.cursor;
  if (isPlainObject(c) && c.batchSize !== undefined) {
    const n = toNumber(c.batchSize);
    return n === 0 ? 0 : n;
  }
  return undefined;
}

function isCountGroup(stage: Doc): boolean {
  const g = stage.$group;
  if (!isPlainObject(g)) return false;
  const keys = Object.keys(g);
  if (keys.length !== 2 || !keys.includes('_id')) return false;
  const id = g._id;
  if (isPlainObject(id) || Array.isArray(id) || (typeof id === 'string' && id.startsWith('$')))
    return false;
  const acc = g[keys.find((k) => k !== '_id')!];
  return isPlainObject(acc) && Object.keys(acc).length === 1 && acc.$sum === 1;
}

function create(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'create');
  for (const opt of [
    'capped',
    'timeseries',
    'viewOn',
    'clusteredIndex',
    'validator',
    'changeStreamPreAndPostImages',
  ]) {
    if (cmd[opt] !== undefined && cmd[opt] !== false)
      throw unsupported(`Collection option '${opt}'`);
  }
  checkCollation(cmd);
  if (ctx.state.store.getColl(ctx.db, name)) {
    throw new MongoError(48, 'NamespaceExists', `Collection ${ctx.db}.${name} already exists.`);
  }
  ctx.state.store.ensureColl(ctx.db, name, ctx.log);
  return { ok: 1 };
}

function drop(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'drop');
  const coll = ctx.state.store.getColl(ctx.db, name);
  // MongoDB 7.0 answers ok for a collection that does not exist.
  if (!coll) return { ok: 1 };
  const nIndexesWas = coll.indexes.length;
  ctx.state.store.dropColl(ctx.db, name);
  ctx.log.push({ k: 'dc', db: ctx.db, c: name });
  return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
}

function renameCollection(cmd: Doc, ctx: CmdContext): Doc {
  const from = cmd.renameCollection;
  const to = cmd.to;
  if (typeof from !== 'string' || typeof to !== 'string') {
    throw failedToParse('renameCollection and to must be namespace strings');
  }
  const split = (ns: string): [string, string] => {
    const i = ns.indexOf('.');
    if (i <= 0 || i === ns.length - 1)
      throw new MongoError(73, 'InvalidNamespace', `Invalid namespace: ${ns}`);
    return [ns.slice(0, i), ns.slice(i + 1)];
  };
  const [fromDb, fromName] = split(from);
  const [toDb, toName] = split(to);
  const store = ctx.state.store;
  const src = store.getColl(fromDb, fromName);
  if (!src)
    throw new MongoError(26, 'NamespaceNotFound', `Source collection ${from} does not exist`);
  if (store.getColl(toDb, toName)) {
    if (!cmd.dropTarget)
      throw new MongoError(48, 'NamespaceExists', `target namespace exists: ${to}`);
    store.dropColl(toDb, toName);
    ctx.log.push({ k: 'dc', db: toDb, c: toName });
  }
  const dest = store.ensureColl(toDb, toName, ctx.log);
  for (const ix of src.indexes) {
    if (ix.name === '_id_') continue;
    dest.addIndex(ix.spec);
    ctx.log.push({ k: 'ci', db: toDb, c: toName, spec: ix.spec });
  }
  for (const rec of src.records.values()) {
    dest.insert(rec);
    ctx.log.push({ k: 'p', db: toDb, c: toName, d: outDoc(rec) });
  }
  store.dropColl(fromDb, fromName);
  ctx.log.push({ k: 'dc', db: fromDb, c: fromName });
  return { ok: 1 };
}

function dropDatabase(_cmd: Doc, ctx: CmdContext): Doc {
  if (ctx.state.store.dbs.delete(ctx.db)) ctx.log.push({ k: 'dd', db: ctx.db });
  return { dropped: ctx.db, ok: 1 };
}

function listCollections(cmd: Doc, ctx: CmdContext): Doc {
  const colls = ctx.state.store.dbs.get(ctx.db);
  let docs: Doc[] = [...(colls?.values() ?? [])].map((c) =>
    cmd.nameOnly
      ? { name: c.name, type: 'collection' }
      : {
          name: c.name,
          type: 'collection',
          options: {},
          info: { readOnly: false },
          idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
        },
  );
  const filter = asDoc(cmd.filter, 'filter');
  const q = compileQuery(filter);
  if (q) docs = docs.filter((d) => q.test(d));
  return makeCursor(ctx, `${ctx.db}.$cmd.listCollections`, docs, batchSizeOf(cmd));
}

function listDatabases(cmd: Doc, ctx: CmdContext): Doc {
  let databases: Doc[] = [...ctx.state.store.dbs.entries()].map(([name, colls]) => {
    let size = 0;
    for (const c of colls.values()) for (const r of c.records.values()) size += estimateSize(r.doc);
    return { name, sizeOnDisk: size, empty: size === 0 };
  });
  const q = compileQuery(asDoc(cmd.filter, 'filter'));
  if (q) databases = databases.filter((d) => q.test(d));
  if (cmd.nameOnly) return { databases: databases.map((d) => ({ name: d.name })), ok: 1 };
  const totalSize = databases.reduce((s, d) => s + (d.sizeOnDisk as number), 0);
  return { databases, totalSize, totalSizeMb: Math.round(totalSize / 1048576), ok: 1 };
}

function validateIndexSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw)) throw badValue('index specification must be an object');
  const key = raw.key;
  if (!isPlainObject(key) || Object.keys(key).length === 0)
    throw badValue('index key pattern must be a non-empty object');
  if (typeof raw.name !== 'string' || !raw.name)
    throw badValue('index name must be a non-empty string');
  for (const [f, d] of Object.entries(key)) {
    if (d === 'text') throw unsupported('Text indexes ($text search)');
    if (d === '2d' || d === '2dsphere' || d === 'geoHaystack')
      throw unsupported(`Geospatial (${d}) indexes`);
    if (d === 'hashed') continue;
    if (typeof d === 'string' && f.endsWith('$**')) throw unsupported('Wildcard indexes');
    if (d !== 1 && d !== -1)
      throw badValue(
        `Values in the index key pattern can only be 1 or -1, got ${String(d)} for ${f}`,
      );
  }
  const coll = raw.collation;
  if (isPlainObject(coll) && coll.locale !== 'simple') {
    throw unsupported(
      `Index collation (locale ${JSON.stringify(coll.locale)}, strength ${String(coll.strength ?? 3)})`,
    );
  }
  for (const opt of ['weights', 'default_language', '2dsphereIndexVersion', 'wildcardProjection']) {
    if (raw[opt] !== undefined) throw unsupported(`Index option '${opt}'`);
  }
  if (raw.partialFilterExpression !== undefined && !isPlainObject(raw.partialFilterExpression)) {
    throw badValue('partialFilterExpression must be an object');
  }
  const spec: IndexSpec = { v: 2, key, name: raw.name };
  if (raw.unique) spec.unique = true;
  if (raw.sparse) spec.sparse = true;
  if (raw.partialFilterExpression)
    spec.partialFilterExpression = raw.partialFilterExpression as Doc;
  if (raw.expireAfterSeconds !== undefined)
    spec.expireAfterSeconds = toNumber(raw.expireAfterSeconds);
  if (raw.hidden) spec.hidden = true;
  return spec;
}

function sameKey(a: Doc, b: Doc): boolean {
  return keyOf(a) === keyOf(b);
}

function createIndexes(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'createIndexes');
  const list = cmd.indexes;
  if (!Array.isArray(list) || list.length === 0)
    throw failedToParse('createIndexes.indexes must be a non-empty array');
  const specs = list.map(validateIndexSpec);
  const store = ctx.state.store;
  const existed = !!store.getColl(ctx.db, name);
  const coll = store.ensureColl(ctx.db, name, ctx.log);
  const before = coll.indexes.length;
  let note: string | undefined;
  for (const spec of specs) {
    const byName = coll.indexes.find((i) => i.name === spec.name);
    if (byName) {
      if (!sameKey(byName.spec.key, spec.key)) {
        throw new MongoError(
          86,
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index but different key: ${spec.name}`,
        );
      }
      if (!!byName.spec.unique !== !!spec.unique || !!byName.spec.sparse !== !!spec.sparse) {
        throw new MongoError(
          86,
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index but different options: ${spec.name}`,
        );
      }
      note = 'all indexes already exist';
      continue;
    }
    const byKey = coll.indexes.find(
      (i) =>
        sameKey(i.spec.key, spec.key) &&
        keyOf(i.spec.partialFilterExpression ?? null) ===
          keyOf(spec.partialFilterExpression ?? null),
    );
    if (byKey) {
      throw new MongoError(
        85,
        'IndexOptionsConflict',
        `Index already exists with a different name: ${byKey.name}`,
      );
    }
    coll.addIndex(spec);
    ctx.log.push({ k: 'ci', db: ctx.db, c: name, spec });
  }
  const reply: Doc = {
    numIndexesBefore: before,
    numIndexesAfter: coll.indexes.length,
    createdCollectionAutomatically: !existed,
    ok: 1,
  };
  if (note && before === coll.indexes.length) reply.note = note;
  return reply;
}

function listIndexes(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'listIndexes');
  const coll = ctx.state.store.getColl(ctx.db, name);
  if (!coll) throw new MongoError(26, 'NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
  const docs = coll.indexes.map((i) => ({ ...i.spec }));
  return makeCursor(ctx, `${ctx.db}.${name}`, docs, batchSizeOf(cmd));
}

function dropIndexes(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'dropIndexes');
  const coll = ctx.state.store.getColl(ctx.db, name);
  if (!coll) throw new MongoError(26, 'NamespaceNotFound', `ns not found ${ctx.db}.${name}`);
  const nIndexesWas = coll.indexes.length;
  const target = cmd.index;
  let names: string[];
  if (target === '*') names = coll.indexes.filter((i) => i.name !== '_id_').map((i) => i.name);
  else if (typeof target === 'string') names = [target];
  else if (Array.isArray(target)) names = target.map(String);
  else if (isPlainObject(target)) {
    const ix = coll.indexes.find((i) => sameKey(i.spec.key, target));
    if (!ix)
      throw new MongoError(
        27,
        'IndexNotFound',
        `can't find index with key: ${JSON.stringify(target)}`,
      );
    names = [ix.name];
  } else throw badValue('dropIndexes.index must be a string, array or key pattern');
  for (const n of names) {
    if (n === '_id_') throw new MongoError(72, 'InvalidOptions', 'cannot drop _id index');
    if (!coll.indexes.some((i) => i.name === n))
      throw new MongoError(27, 'IndexNotFound', `index not found with name [${n}]`);
  }
  for (const n of names) {
    const idx = coll.indexes.findIndex((i) => i.name === n);
    coll.indexes.splice(idx, 1);
    ctx.log.push({ k: 'di', db: ctx.db, c: name, name: n });
  }
  return { nIndexesWas, ok: 1 };
}

function buildInfo(): Doc {
  return {
    version: '7.0.0',
    gitVersion: 'embedded',
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_SIZE,
    storageEngines: ['embedded'],
    modules: [],
    ok: 1,
  };
}

function transactionsUnsupported(): never {
  throw new MongoError(
    20,
    'IllegalOperation',
    'Transactions are not supported by the embedded store (it is a standalone server); ' +
      'use a real MongoDB replica set through MONGODB_URI',
  );
}

function authUnsupported(): never {
  throw new MongoError(
    18,
    'AuthenticationFailed',
    'Authentication (SCRAM) is not supported by the embedded store; connect without credentials or use a real MongoDB server through MONGODB_URI',
  );
}

export const HANDLERS: Record<string, Handler> = {
  hello,
  ismaster: hello,
  ping: () => ({ ok: 1 }),
  buildinfo: buildInfo,
  listdatabases: listDatabases,
  create,
  drop,
  dropdatabase: dropDatabase,
  renamecollection: renameCollection,
  listcollections: listCollections,
  createindexes: createIndexes,
  listindexes: listIndexes,
  dropindexes: dropIndexes,
  deleteindexes: dropIndexes,
  insert,
  update,
  delete: del,
  find,
  getmore: getMore,
  killcursors: killCursors,
  findandmodify: findAndModify,
  aggregate,
  count,
  distinct,
  endsessions: () => ({ ok: 1 }),
  refreshsessions: () => ({ ok: 1 }),
  killsessions: () => ({ ok: 1 }),
  killallsessions: () => ({ ok: 1 }),
  whatsmyuri: () => ({ you: '127.0.0.1:0', ok: 1 }),
  connectionstatus: () => ({
    authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
    ok: 1,
  }),
  getlasterror: () => ({ n: 0, err: null, ok: 1 }),
  hostinfo: () => ({ system: { hostname: '127.0.0.1' }, ok: 1 }),
  committransaction: transactionsUnsupported,
  aborttransaction: transactionsUnsupported,
  saslstart: authUnsupported,
  saslcontinue: authUnsupported,
  authenticate: authUnsupported,
  mapreduce: () => {
    throw unsupported('mapReduce');
  },
  watch: () => {
    throw unsupported('Change streams');
  },
  bulkwrite: () => {
    throw unsupported('The bulkWrite command (client-level bulk write)');
  },
};

/** Fields a command body may carry that we accept and ignore. */
export function checkCommandEnvelope(cmd: Doc): void {
  if (cmd.startTransaction === true || cmd.autocommit === false) transactionsUnsupported();
}

export { normalize };
