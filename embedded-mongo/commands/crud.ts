// Reads and writes of documents: insert, update, delete, find, findAndModify, count, distinct.
import { collatedKeyOf } from '../bson-order';
import type { Rec } from '../engine';
import { badValue, failedToParse, MongoError, unsupported } from '../errors';
import {
  type Doc,
  isEmptyArrayMarker,
  isPlainObject,
  normalize,
  pathValues,
  withTypes,
} from '../values';
import {
  asDoc,
  type CmdContext,
  collName,
  MAX_WRITE_BATCH,
  outDoc,
  storedDoc,
  toNumber,
  validateForStorage,
  withId,
  writeError,
} from './context';
import { type DocSource, makeCursor } from './cursors';
import { countRecords, findRecords, openFindRecords, project, projector, readEnv } from './query';
import { newStats } from './scan';
import { applyUpdate, doUpsert, isOperatorUpdate, updateRecord } from './update';

export function insert(cmd: Doc, ctx: CmdContext): Doc {
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

export function update(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'update');
  const updates = cmd.updates;
  if (!Array.isArray(updates)) throw failedToParse('update.updates must be an array');
  // MongoDB 8.0 added sort to update statements; 7.0 refuses the command (not a write error).
  if (updates.some((u) => isPlainObject(u) && u.sort !== undefined)) {
    throw unknownField('update.updates.sort');
  }
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
      // `c`: the statement's constants for a pipeline update, beside the command's `let`.
      const vars = isPlainObject(spec.c) ? { ...asDoc(cmd.let, 'let'), ...spec.c } : cmd.let;
      const env = readEnv(spec, vars, ctx.state.store.getColl(ctx.db, name)?.defaultCollation);
      const arrayFilters = Array.isArray(spec.arrayFilters)
        ? (spec.arrayFilters as Doc[])
        : undefined;
      // Keep the wire types of a replacement document.
      const updateDoc = !Array.isArray(u) && !isOperatorUpdate(u) ? (rawU as Doc) : u;
      const coll = store.getColl(ctx.db, name);
      const matches = findRecords(coll, filter, { limit: spec.multi ? 0 : 1 }, env);
      if (matches.length === 0) {
        if (spec.upsert) {
          const c = store.ensureColl(ctx.db, name, ctx.log);
          const rec = doUpsert(c, filter, updateDoc as Doc, arrayFilters, ctx, env);
          upserted.push({ index: i, _id: rec.doc._id });
          n++;
        }
        continue;
      }
      if (spec.multi && !Array.isArray(u) && !isOperatorUpdate(u)) {
        throw failedToParse('multi update is not supported for replacement-style update');
      }
      for (const [id, rec] of matches) {
        const res = applyUpdate(rec, updateDoc as Doc, {
          arrayFilters,
          filter,
          inserting: false,
          env,
        });
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

export function del(cmd: Doc, ctx: CmdContext): Doc {
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
      const env = readEnv(spec, cmd.let, ctx.state.store.getColl(ctx.db, name)?.defaultCollation);
      const limit = toNumber(spec.limit, 0);
      const matches = findRecords(coll, asDoc(spec.q, 'q'), { limit: limit === 1 ? 1 : 0 }, env);
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

export function find(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'find');
  const env = readEnv(cmd, cmd.let, ctx.state.store.getColl(ctx.db, name)?.defaultCollation);
  if (cmd.tailable) throw unsupported('Tailable cursors');
  const coll = ctx.state.store.getColl(ctx.db, name);
  let limit = toNumber(cmd.limit, 0);
  let single = cmd.singleBatch === true;
  if (limit < 0) {
    limit = -limit;
    single = true;
  }
  const filter = asDoc(cmd.filter, 'filter');
  const opts = {
    sort: cmd.sort ? asDoc(cmd.sort, 'sort') : undefined,
    skip: toNumber(cmd.skip, 0),
    limit,
  };
  const projection = cmd.projection ? asDoc(cmd.projection, 'projection') : undefined;
  const bs = cmd.batchSize === undefined ? undefined : toNumber(cmd.batchSize);
  const ns = `${ctx.db}.${name}`;
  // Batches produced as the cursor is read (a stream holds a batch, not the collection);
  // what needs every match first (an in-memory sort, a collation) is read at once.
  const store = ctx.state.store;
  const lazy = coll
    ? openFindRecords(
        {
          coll,
          live: () => store.getColl(ctx.db, name) === coll,
          stats: ctx.state.stats.queryExecutor,
        },
        filter,
        opts,
        env,
      )
    : null;
  if (lazy) {
    // Prepared once (a projection it refuses is refused before any match is read).
    const shape = projector(projection, env);
    const next: DocSource = () => {
      const r = lazy.next();
      if (r.done) return undefined;
      const doc = outDoc(r.value[1]);
      return shape ? shape.doc(doc) : doc;
    };
    return makeCursor(ctx, ns, next, bs === 0 ? undefined : bs, single);
  }
  const scan = newStats();
  const recs = findRecords(coll, filter, { ...opts, stats: scan }, env);
  ctx.state.stats.queryExecutor.scannedObjects += scan.docsExamined;
  const docs = project(
    recs.map(([, r]) => outDoc(r)),
    projection,
    env,
  );
  return makeCursor(ctx, ns, docs, bs === 0 ? undefined : bs, single);
}

export function findAndModify(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, Object.keys(cmd)[0]);
  const env = readEnv(cmd, cmd.let, ctx.state.store.getColl(ctx.db, name)?.defaultCollation);
  const store = ctx.state.store;
  const filter = asDoc(cmd.query, 'query');
  const sort = cmd.sort ? asDoc(cmd.sort, 'sort') : undefined;
  const fields = cmd.fields ? asDoc(cmd.fields, 'fields') : undefined;
  const coll = store.getColl(ctx.db, name);
  const [match] = findRecords(coll, filter, { sort, limit: 1 }, env);
  const arrayFilters = Array.isArray(cmd.arrayFilters) ? (cmd.arrayFilters as Doc[]) : undefined;
  const shape = (rec: Rec | undefined): Doc | null =>
    rec ? project([outDoc(rec)], fields, env)[0] : null;
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
    const rec = doUpsert(c, filter, upd as Doc, arrayFilters, ctx, env);
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: rec.doc._id },
      value: cmd.new ? shape(rec) : null,
      ok: 1,
    };
  }
  const [id, rec] = match;
  const res = applyUpdate(rec, upd as Doc, { arrayFilters, filter, inserting: false, env });
  if (res.modified) updateRecord(coll!, id, rec, res.rec, ctx);
  return {
    lastErrorObject: { n: 1, updatedExisting: true },
    value: shape(cmd.new ? res.rec : rec),
    ok: 1,
  };
}

export function count(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'count');
  const env = readEnv(cmd, undefined, ctx.state.store.getColl(ctx.db, name)?.defaultCollation);
  const coll = ctx.state.store.getColl(ctx.db, name);
  const filter = asDoc(cmd.query, 'query');
  const skip = toNumber(cmd.skip, 0);
  const limit = Math.abs(toNumber(cmd.limit, 0));
  let n = countRecords(coll, filter, env);
  n = Math.max(0, n - skip);
  if (limit) n = Math.min(n, limit);
  return { n, ok: 1 };
}

export function distinct(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'distinct');
  const env = readEnv(cmd, undefined, ctx.state.store.getColl(ctx.db, name)?.defaultCollation);
  const key = cmd.key;
  if (typeof key !== 'string') throw failedToParse('distinct.key must be a string');
  const coll = ctx.state.store.getColl(ctx.db, name);
  const seen = new Map<string, unknown>();
  const top = key.split('.')[0];
  for (const [, rec] of findRecords(coll, asDoc(cmd.query, 'query'), {}, env)) {
    // Restore stored number types only when some are noted under the key (a copy of the path).
    const typed = rec.notes?.some((n) => n[0][0] === top) ? outDoc(rec) : rec.doc;
    for (const v of pathValues(typed, key)) {
      if (v === undefined || isEmptyArrayMarker(v)) continue;
      const k = collatedKeyOf(v, env.collation);
      if (!seen.has(k)) seen.set(k, v);
    }
  }
  return { values: [...seen.values()], ok: 1 };
}

function unknownField(field: string): MongoError {
  return new MongoError(40415, 'Location40415', `BSON field '${field}' is an unknown field.`);
}
