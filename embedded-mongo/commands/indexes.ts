// Indexes: createIndexes (with MongoDB's conflict rules), listIndexes, dropIndexes.
import { parseCollation } from '../collation';
import type { IndexSpec } from '../engine';
import { badValue, failedToParse, MongoError, unsupported } from '../errors';
import { type Doc, isPlainObject, keyOf } from '../values';
import { type CmdContext, collName, toNumber } from './context';
import { batchSizeOf, makeCursor } from './cursors';

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
  const collation = parseCollation(raw.collation);
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
  if (collation) spec.collation = collation.spec;
  return spec;
}

function sameKey(a: Doc, b: Doc): boolean {
  return keyOf(a) === keyOf(b);
}

export function createIndexes(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'createIndexes');
  const list = cmd.indexes;
  if (!Array.isArray(list) || list.length === 0)
    throw failedToParse('createIndexes.indexes must be a non-empty array');
  const specs = list.map(validateIndexSpec);
  const store = ctx.state.store;
  const existed = !!store.getColl(ctx.db, name);
  const coll = store.ensureColl(ctx.db, name, ctx.log);
  // An index that names no collation takes the collection's default one.
  specs.forEach((spec, i) => {
    const named = isPlainObject(list[i]) && list[i].collation !== undefined;
    if (!named && coll.defaultCollation) spec.collation = coll.defaultCollation.spec;
  });
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
        keyOf(i.spec.collation ?? null) === keyOf(spec.collation ?? null) &&
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

export function listIndexes(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'listIndexes');
  const coll = ctx.state.store.getColl(ctx.db, name);
  if (!coll) throw new MongoError(26, 'NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
  const docs = coll.indexes.map((i) => ({ ...i.spec }));
  return makeCursor(ctx, `${ctx.db}.${name}`, docs, batchSizeOf(cmd));
}

export function dropIndexes(cmd: Doc, ctx: CmdContext): Doc {
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
