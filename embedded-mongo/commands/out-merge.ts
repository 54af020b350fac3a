// The aggregation stages that write: $out (replace a collection with the results, atomically) and
// $merge (insert, replace, merge or update result by result). The pipeline before them runs as
// usual (commands/aggregate.ts); their writes go through the command's journal log like any
// other write, so they are durable before the reply and reach the write hook.
import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import type { Options } from 'mingo/types';

import { Collection, type Index, type Rec, validateCollName } from '../engine';
import { failedToParse, MongoError, unsupported } from '../errors';
import { QUERY_OPTIONS } from '../mingo-context';
import { cloneDeep, type Doc, isPlainObject, keyOf, pathValues, pruneNotes } from '../values';
import { type CmdContext, outDoc, storedDoc, validateForStorage, withId } from './context';
import { findRecords } from './query';
import { updateRecord } from './update';

const WRITE_STAGES = ['$out', '$merge'];

/**
 * Checks where $out and $merge appear (last stage only, never inside $facet, $lookup or
 * $unionWith) and returns the final one, or null when the pipeline does not write.
 */
export function finalWriteStage(pipeline: Doc[]): Doc | null {
  pipeline.forEach((stage, i) => {
    const op = Object.keys(stage)[0];
    if (WRITE_STAGES.includes(op) && i !== pipeline.length - 1) {
      throw new MongoError(
        40601,
        'Location40601',
        `${op} can only be the final stage in the pipeline`,
      );
    }
    checkSubPipelines(stage);
  });
  const last = pipeline[pipeline.length - 1];
  return last && WRITE_STAGES.includes(Object.keys(last)[0]) ? last : null;
}

function checkSubPipelines(stage: Doc): void {
  const op = Object.keys(stage)[0];
  const spec = stage[op];
  const subs: { pipeline: unknown; code: number; where: string }[] = [];
  if (op === '$facet' && isPlainObject(spec)) {
    for (const p of Object.values(spec)) subs.push({ pipeline: p, code: 40600, where: '$facet' });
  } else if (op === '$lookup' && isPlainObject(spec)) {
    subs.push({ pipeline: spec.pipeline, code: 51047, where: "a $lookup's sub-pipeline" });
  } else if (op === '$unionWith' && isPlainObject(spec)) {
    subs.push({ pipeline: spec.pipeline, code: 31441, where: "a $unionWith's sub-pipeline" });
  }
  for (const { pipeline, code, where } of subs) {
    if (!Array.isArray(pipeline)) continue;
    for (const inner of pipeline) {
      if (!isPlainObject(inner)) continue;
      const innerOp = Object.keys(inner)[0];
      if (WRITE_STAGES.includes(innerOp)) {
        throw new MongoError(code, `Location${code}`, `${innerOp} is not allowed within ${where}`);
      }
      checkSubPipelines(inner);
    }
  }
}

/** Runs the final $out or $merge stage over the documents the rest of the pipeline produced. */
export function runWriteStage(stage: Doc, docs: Doc[], ctx: CmdContext): void {
  if ('$out' in stage) out(stage.$out, docs, ctx);
  else merge(stage.$merge, docs, ctx);
}

function namespaceOf(
  spec: unknown,
  defaultDb: string,
  stage: string,
  collKey: string,
): { db: string; name: string } {
  let db = defaultDb;
  let name: unknown = spec;
  if (isPlainObject(spec)) {
    db = typeof spec.db === 'string' ? spec.db : defaultDb;
    name = spec[collKey];
  }
  if (typeof name !== 'string' || !db) {
    throw new MongoError(73, 'InvalidNamespace', `Invalid ${stage} target namespace`);
  }
  validateCollName(name);
  if (name.startsWith('system.')) {
    throw new MongoError(31319, 'Location31319', `Cannot ${stage} to special collection: ${name}`);
  }
  if (db === 'admin' || db === 'local' || db === 'config') {
    throw new MongoError(31320, 'Location31320', `Cannot ${stage} to internal database: ${db}`);
  }
  return { db, name };
}

function putColl(ctx: CmdContext, coll: Collection): void {
  const dbs = ctx.state.store.dbs;
  let colls = dbs.get(coll.db);
  if (!colls) dbs.set(coll.db, (colls = new Map()));
  colls.set(coll.name, coll);
}

/**
 * $out: the results replace the target collection (created if missing), which keeps its
 * indexes. The new contents are built aside first: a duplicate key leaves the target as it was.
 * The drop, the creation and every document are one journal record, so after a crash the
 * target is either the old collection or the new one.
 */
function out(spec: unknown, docs: Doc[], ctx: CmdContext): void {
  if (typeof spec !== 'string' && !isPlainObject(spec)) {
    throw new MongoError(16990, 'Location16990', '$out only supports a string or object argument');
  }
  if (isPlainObject(spec)) {
    if (spec.timeseries !== undefined) throw unsupported('$out to a time-series collection');
    for (const k of Object.keys(spec)) {
      if (k !== 'db' && k !== 'coll') {
        throw new MongoError(40415, 'Location40415', `BSON field '$out.${k}' is an unknown field.`);
      }
    }
  }
  const { db, name } = namespaceOf(spec, ctx.db, '$out', 'coll');
  const store = ctx.state.store;
  const old = store.getColl(db, name);
  const fresh = new Collection(db, name);
  const specs = old ? old.indexes.filter((ix) => ix.name !== '_id_').map((ix) => ix.spec) : [];
  for (const s of specs) fresh.addIndex(s);
  const recs: Rec[] = [];
  for (const d of docs) {
    const rec = storedDoc(d);
    rec.doc = withId(rec.doc);
    validateForStorage(rec.doc);
    fresh.insert(rec);
    recs.push(rec);
  }
  if (old) {
    store.dropColl(db, name);
    ctx.log.push({ k: 'dc', db, c: name });
  }
  putColl(ctx, fresh);
  ctx.log.push({ k: 'cc', db, c: name });
  for (const s of specs) ctx.log.push({ k: 'ci', db, c: name, spec: s });
  for (const rec of recs) ctx.log.push({ k: 'p', db, c: name, d: outDoc(rec) });
}

type WhenMatched = 'replace' | 'keepExisting' | 'merge' | 'fail' | 'pipeline';
type WhenNotMatched = 'insert' | 'discard' | 'fail';

/** The combinations MongoDB supports (others: 51181). */
const SUPPORTED_MODES: Record<WhenMatched, WhenNotMatched[]> = {
  replace: ['insert', 'discard', 'fail'],
  merge: ['insert', 'discard', 'fail'],
  pipeline: ['insert', 'discard', 'fail'],
  keepExisting: ['insert'],
  fail: ['insert'],
};

const MERGE_FIELDS = new Set(['into', 'on', 'let', 'whenMatched', 'whenNotMatched']);

interface MergeSpec {
  db: string;
  name: string;
  on: string[];
  whenMatched: WhenMatched;
  pipeline: Doc[] | null;
  whenNotMatched: WhenNotMatched;
  letVars: Doc | null;
}

function parseMerge(spec: unknown, defaultDb: string): MergeSpec {
  if (typeof spec === 'string') {
    const { db, name } = namespaceOf(spec, defaultDb, '$merge', 'coll');
    return {
      db,
      name,
      on: ['_id'],
      whenMatched: 'merge',
      pipeline: null,
      whenNotMatched: 'insert',
      letVars: null,
    };
  }
  if (!isPlainObject(spec)) {
    throw new MongoError(
      51182,
      'Location51182',
      '$merge only supports a string or object argument',
    );
  }
  for (const k of Object.keys(spec)) {
    if (!MERGE_FIELDS.has(k)) {
      throw new MongoError(40415, 'Location40415', `BSON field '$merge.${k}' is an unknown field.`);
    }
  }
  if (spec.into === undefined) {
    throw new MongoError(
      40414,
      'Location40414',
      "BSON field '$merge.into' is missing but a required field",
    );
  }
  const { db, name } = namespaceOf(spec.into, defaultDb, '$merge', 'coll');
  let on = ['_id'];
  if (spec.on !== undefined) {
    const list = typeof spec.on === 'string' ? [spec.on] : spec.on;
    if (!Array.isArray(list) || list.length === 0 || !list.every((f) => typeof f === 'string')) {
      throw new MongoError(
        51186,
        'Location51186',
        "$merge 'on' field must be either a string or an array of strings",
      );
    }
    const seen = new Set<string>();
    for (const f of list as string[]) {
      if (seen.has(f))
        throw new MongoError(31465, 'Location31465', `Found a duplicate field '${f}'`);
      seen.add(f);
    }
    on = list as string[];
  }
  let whenMatched: WhenMatched = 'merge';
  let pipeline: Doc[] | null = null;
  if (Array.isArray(spec.whenMatched)) {
    whenMatched = 'pipeline';
    pipeline = spec.whenMatched as Doc[];
  } else if (spec.whenMatched !== undefined) {
    const m = spec.whenMatched;
    if (m !== 'replace' && m !== 'keepExisting' && m !== 'merge' && m !== 'fail') {
      throw failedToParse(
        `Enumeration value '${String(m)}' for field '$merge.whenMatched' is not a valid value.`,
      );
    }
    whenMatched = m;
  }
  let whenNotMatched: WhenNotMatched = 'insert';
  if (spec.whenNotMatched !== undefined) {
    const m = spec.whenNotMatched;
    if (m !== 'insert' && m !== 'discard' && m !== 'fail') {
      throw failedToParse(
        `Enumeration value '${String(m)}' for field '$merge.whenNotMatched' is not a valid value.`,
      );
    }
    whenNotMatched = m;
  }
  if (!SUPPORTED_MODES[whenMatched].includes(whenNotMatched)) {
    throw new MongoError(
      51181,
      'Location51181',
      `Combination of $merge modes 'whenMatched: ${whenMatched}' and 'whenNotMatched: ${whenNotMatched}' is not supported`,
    );
  }
  let letVars: Doc | null = null;
  if (spec.let !== undefined) {
    if (!isPlainObject(spec.let)) throw failedToParse("$merge 'let' must be an object");
    if (whenMatched !== 'pipeline') {
      throw new MongoError(
        51199,
        'Location51199',
        `Cannot use 'let' variables with 'whenMatched: ${whenMatched}' mode`,
      );
    }
    letVars = spec.let;
  }
  if (whenMatched === 'pipeline') {
    // Default {new: "$$ROOT"}; 'new' may only be "$$ROOT".
    letVars ??= { new: '$$ROOT' };
    if (letVars.new !== undefined && letVars.new !== '$$ROOT') {
      throw new MongoError(
        51273,
        'Location51273',
        "'let' may not define a value for the reserved 'new' variable other than '$$ROOT'",
      );
    }
  }
  return { db, name, on, whenMatched, pipeline, whenNotMatched, letVars };
}

/** The unique index that makes `on` a key, as $merge requires (51183 without one). */
function uniqueIndexFor(coll: Collection | undefined, on: string[]): Index | null {
  if (on.length === 1 && on[0] === '_id') return coll?.indexes[0] ?? null;
  const want = [...on].sort().join('\u0000');
  const ix = coll?.indexes.find(
    (i) =>
      i.unique &&
      !i.partial &&
      i.fields
        .map(([f]) => f)
        .sort()
        .join('\u0000') === want,
  );
  if (!ix) {
    throw new MongoError(
      51183,
      'Location51183',
      'Cannot find index to verify that join fields will be unique',
    );
  }
  return ix;
}

/** The values of $merge's `let` variables for one result document (its $$ROOT). */
function letValues(letVars: Doc, doc: Doc): Doc {
  const vars: Doc = {};
  for (const [name, expr] of Object.entries(letVars)) {
    if (expr === '$$ROOT') {
      vars[name] = doc;
      continue;
    }
    const [res] = new Aggregator([{ $replaceWith: { v: expr } }], {
      ...QUERY_OPTIONS,
      processingMode: ProcessingMode.CLONE_INPUT,
    }).run<Doc>([cloneDeep(doc)]);
    vars[name] = res?.v;
  }
  return vars;
}

/**
 * $merge: each result is matched on the `on` fields (`_id` by default, else fields with a
 * unique index on the target) and written by whenMatched / whenNotMatched. Like MongoDB, the
 * writes made before a failing document stay.
 */
function merge(spec: unknown, docs: Doc[], ctx: CmdContext): void {
  const m = parseMerge(spec, ctx.db);
  const store = ctx.state.store;
  let coll = store.getColl(m.db, m.name);
  const onId = m.on.length === 1 && m.on[0] === '_id';
  const index = uniqueIndexFor(coll, m.on);
  for (const d of docs) {
    const rec = storedDoc(d);
    if (onId) rec.doc = withId(rec.doc);
    const filter: Doc = {};
    for (const f of m.on) {
      const vals = pathValues(rec.doc, f);
      const v = vals[0];
      if (vals.length !== 1 || v === undefined || v === null || Array.isArray(v)) {
        throw new MongoError(
          51132,
          'Location51132',
          `$merge write error: 'on' field '${f}' cannot be missing, null, undefined or an array`,
        );
      }
      filter[f] = { $eq: v };
    }
    const [match] = coll ? findRecords(coll, filter, { limit: 1 }) : [];
    if (!match) {
      if (m.whenNotMatched === 'discard') continue;
      if (m.whenNotMatched === 'fail') {
        throw new MongoError(
          13113,
          'MergeStageNoMatchingDocument',
          '$merge could not find a matching document in the target collection for at least one document in the source collection',
        );
      }
      coll ??= store.ensureColl(m.db, m.name, ctx.log);
      rec.doc = withId(rec.doc);
      validateForStorage(rec.doc);
      coll.insert(rec);
      ctx.log.push({ k: 'p', db: m.db, c: m.name, d: outDoc(rec) });
      continue;
    }
    const [id, old] = match;
    let next: Rec;
    switch (m.whenMatched) {
      case 'keepExisting':
        continue;
      case 'fail':
        throw coll!.dupError(index ?? coll!.indexes[0], rec.doc);
      case 'replace':
        next = { doc: { _id: old.doc._id, ...rec.doc }, notes: rec.notes };
        break;
      case 'merge': {
        const replaced = new Set(Object.keys(rec.doc));
        const kept = (old.notes ?? []).filter(([path]) => !replaced.has(String(path[0])));
        next = { doc: { ...old.doc, ...rec.doc }, notes: [...kept, ...(rec.notes ?? [])] };
        break;
      }
      default: {
        const options: Partial<Options> = {
          ...QUERY_OPTIONS,
          processingMode: ProcessingMode.CLONE_INPUT,
          variables: letValues(m.letVars ?? {}, rec.doc),
        };
        let updated: Doc | undefined;
        try {
          [updated] = new Aggregator(m.pipeline!, options).run<Doc>([cloneDeep(old.doc)]);
        } catch (e) {
          if (e instanceof MongoError) throw e;
          throw failedToParse(`$merge whenMatched pipeline failed: ${(e as Error).message}`);
        }
        const doc = updated ?? {};
        next = { doc: { _id: old.doc._id, ...doc }, notes: old.notes };
        if (doc._id !== undefined) next.doc._id = doc._id;
      }
    }
    if (keyOf(next.doc._id) !== keyOf(old.doc._id)) {
      throw new MongoError(
        66,
        'ImmutableField',
        "$merge failed to update the matching document, did you attempt to modify the _id or the shard key? :: caused by :: Performing an update on the path '_id' would modify the immutable field '_id'",
      );
    }
    next.notes = pruneNotes(next.doc, next.notes);
    updateRecord(coll!, id, old, next, ctx);
  }
}
