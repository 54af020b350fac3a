// collMod: changing an index's TTL (`expireAfterSeconds`) or `hidden` flag. Validators (and the
// validation level and action that go with them), views, capped sizes, time-series and
// change-stream options are refused clearly: the store has none of those collections.
import { formatValue, Index, type IndexSpec } from '../engine';
import { badValue, MongoError, unsupported } from '../errors';
import { type Doc, isPlainObject, keyOf } from '../values';
import { type CmdContext, collName, toNumber } from './context';

/** Envelope fields a driver may add to any command. */
const IGNORED = new Set([
  'collMod',
  'writeConcern',
  'comment',
  'maxTimeMS',
  'lsid',
  'txnNumber',
  '$db',
  '$readPreference',
  '$clusterTime',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
]);

const REFUSED: Record<string, string> = {
  validator: 'Document validation (collMod validator)',
  validationLevel: 'Document validation (collMod validationLevel)',
  validationAction: 'Document validation (collMod validationAction)',
  viewOn: 'Views (collMod viewOn)',
  pipeline: 'Views (collMod pipeline)',
  cappedSize: 'Capped collections (collMod cappedSize)',
  cappedMax: 'Capped collections (collMod cappedMax)',
  expireAfterSeconds: 'Time-series collections (collMod expireAfterSeconds)',
  timeseries: 'Time-series collections (collMod timeseries)',
  changeStreamPreAndPostImages: 'Change streams (collMod changeStreamPreAndPostImages)',
  clusteredIndex: 'Clustered collections (collMod clusteredIndex)',
};

export function collMod(cmd: Doc, ctx: CmdContext): Doc {
  const name = collName(cmd, 'collMod');
  for (const k of Object.keys(cmd)) {
    if (IGNORED.has(k) || k === 'index') continue;
    if (k in REFUSED) throw unsupported(REFUSED[k]);
    throw new MongoError(40415, 'Location40415', `BSON field 'collMod.${k}' is an unknown field.`);
  }
  const coll = ctx.state.store.getColl(ctx.db, name);
  if (!coll) throw new MongoError(26, 'NamespaceNotFound', 'ns does not exist');
  if (cmd.index === undefined) return { ok: 1 };
  const spec = cmd.index;
  if (!isPlainObject(spec)) badType('index', 'object');
  for (const k of Object.keys(spec)) {
    if (!['keyPattern', 'name', 'expireAfterSeconds', 'hidden'].includes(k)) {
      if (k === 'unique' || k === 'prepareUnique') {
        throw unsupported(`Converting an index to unique (collMod index.${k})`);
      }
      throw new MongoError(
        40415,
        'Location40415',
        `BSON field 'collMod.index.${k}' is an unknown field.`,
      );
    }
  }
  if ((spec.keyPattern === undefined) === (spec.name === undefined)) {
    throw badValue('Must specify either index name or key pattern.');
  }
  if (spec.expireAfterSeconds === undefined && spec.hidden === undefined) {
    throw badValue('no expireAfterSeconds or hidden field');
  }
  const pos = coll.indexes.findIndex((ix) =>
    spec.name !== undefined
      ? ix.name === spec.name
      : isPlainObject(spec.keyPattern) && keyOf(ix.spec.key) === keyOf(spec.keyPattern),
  );
  const wanted = spec.name !== undefined ? String(spec.name) : formatValue(spec.keyPattern);
  if (pos < 0) {
    throw new MongoError(27, 'IndexNotFound', `cannot find index ${wanted} for ns ${coll.ns}`);
  }
  const ix = coll.indexes[pos];
  const next: IndexSpec = { ...ix.spec };
  const reply: Doc = {};
  if (spec.expireAfterSeconds !== undefined) {
    const secs = toNumber(spec.expireAfterSeconds);
    if (!Number.isInteger(secs) || secs < 0 || secs > 2147483647) {
      throw new MongoError(
        2,
        'BadValue',
        'expireAfterSeconds must be an integer between 0 and 2147483647',
      );
    }
    if (ix.name === '_id_' || ix.fields.length !== 1) {
      throw new MongoError(
        72,
        'InvalidOptions',
        "TTL indexes are single-field indexes, compound indexes (and the '_id' index) do not support TTL",
      );
    }
    // Since MongoDB 5.1 collMod can also make a single-field index a TTL index.
    if (ix.spec.expireAfterSeconds !== secs) {
      if (ix.spec.expireAfterSeconds !== undefined) {
        reply.expireAfterSeconds_old = ix.spec.expireAfterSeconds;
      }
      reply.expireAfterSeconds_new = secs;
      next.expireAfterSeconds = secs;
    }
  }
  if (spec.hidden !== undefined) {
    if (typeof spec.hidden !== 'boolean') badType('index.hidden', 'bool');
    if (ix.name === '_id_') throw badValue("can't hide _id index");
    const was = ix.spec.hidden === true;
    if (was !== spec.hidden) {
      reply.hidden_old = was;
      reply.hidden_new = spec.hidden;
      if (spec.hidden) next.hidden = true;
      else delete next.hidden;
    }
  }
  if (Object.keys(reply).length) {
    // A fresh index with the new spec (specs may be shared with copies made by renames or $out),
    // last in the list, where replaying the journal's drop and create puts it too.
    const rebuilt = new Index(next);
    for (const [id, rec] of coll.records) rebuilt.add(id, rec);
    rebuilt.warm(coll.records);
    coll.indexes.splice(pos, 1);
    coll.indexes.push(rebuilt);
    ctx.log.push({ k: 'di', db: ctx.db, c: name, name: ix.name });
    ctx.log.push({ k: 'ci', db: ctx.db, c: name, spec: next });
  }
  return { ...reply, ok: 1 };
}

function badType(field: string, type: string): never {
  throw new MongoError(
    14,
    'TypeMismatch',
    `BSON field 'collMod.${field}' is the wrong type, expected type '${type}'`,
  );
}
