// Collections and databases: create, drop, renameCollection, dropDatabase, listCollections,
// listDatabases.
import { parseCollation } from '../collation';
import { failedToParse, MongoError, unsupported } from '../errors';
import type { Doc } from '../values';
import { asDoc, type CmdContext, collName, outDoc } from './context';
import { batchSizeOf, estimateSize, makeCursor } from './cursors';
import { compileQuery } from './query';

export function create(cmd: Doc, ctx: CmdContext): Doc {
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
  // A default collation applies to the collection's queries and (unless they name one) indexes.
  const collation = parseCollation(cmd.collation);
  if (ctx.state.store.getColl(ctx.db, name)) {
    throw new MongoError(48, 'NamespaceExists', `Collection ${ctx.db}.${name} already exists.`);
  }
  ctx.state.store.ensureColl(ctx.db, name, ctx.log, collation ? { collation: collation.spec } : {});
  return { ok: 1 };
}

export function drop(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'drop');
  const coll = ctx.state.store.getColl(ctx.db, name);
  // MongoDB 7.0 answers ok for a collection that does not exist.
  if (!coll) return { ok: 1 };
  const nIndexesWas = coll.indexes.length;
  ctx.state.store.dropColl(ctx.db, name);
  ctx.log.push({ k: 'dc', db: ctx.db, c: name });
  return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
}

export function renameCollection(cmd: Doc, ctx: CmdContext): Doc {
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
  const dest = store.ensureColl(toDb, toName, ctx.log, src.options);
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

export function dropDatabase(_cmd: Doc, ctx: CmdContext): Doc {
  // Drop collection by collection, so the log names every collection the command changed
  // (the write hook reports those names).
  const store = ctx.state.store;
  for (const name of [...(store.dbs.get(ctx.db)?.keys() ?? [])]) {
    store.dropColl(ctx.db, name);
    ctx.log.push({ k: 'dc', db: ctx.db, c: name });
  }
  // dropColl removes a database with its last collection; a database left empty goes here.
  if (store.dbs.delete(ctx.db)) ctx.log.push({ k: 'dd', db: ctx.db });
  return { dropped: ctx.db, ok: 1 };
}

export function listCollections(cmd: Doc, ctx: CmdContext): Doc {
  const colls = ctx.state.store.dbs.get(ctx.db);
  let docs: Doc[] = [...(colls?.values() ?? [])].map((c) =>
    cmd.nameOnly
      ? { name: c.name, type: 'collection' }
      : {
          name: c.name,
          type: 'collection',
          options: c.options,
          info: { readOnly: false },
          idIndex: { ...c.indexes[0].spec },
        },
  );
  const filter = asDoc(cmd.filter, 'filter');
  const q = compileQuery(filter);
  if (q) docs = docs.filter((d) => q.test(d));
  return makeCursor(ctx, `${ctx.db}.$cmd.listCollections`, docs, batchSizeOf(cmd));
}

export function listDatabases(cmd: Doc, ctx: CmdContext): Doc {
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
