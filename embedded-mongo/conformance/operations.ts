// The operations of a test, one driver call each: a spec operation (`name`, `object`,
// `arguments`) becomes the matching call on the entity it names (a collection, a database, a
// client) or on the test runner itself (`failPoint`, `assertCollectionExists`/`NotExists`).
// Its result is returned as the driver gives it (bulk write results in the spec's shape); its
// error is thrown as the driver throws it, a Mismatch when the operation is not implemented.
import { type Collection, type Db, MongoClient } from 'mongodb';

import type { TestContext } from './entities';
import { type Doc, Mismatch } from './match';

/** Maps a spec operation's arguments to driver options (removing the positional ones). */
function options(args: Doc, positional: string[]): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(args)) {
    if (positional.includes(k)) continue;
    if (k === 'returnDocument') out.returnDocument = String(v).toLowerCase();
    else out[k] = v;
  }
  return out;
}

/** A bulk write result (or a bulk write error's partial result) in the spec's shape. */
export function bulkResult(r: {
  insertedCount: number;
  matchedCount: number;
  modifiedCount: number;
  deletedCount: number;
  upsertedCount: number;
  upsertedIds: Record<number, unknown>;
  insertedIds: Record<number, unknown>;
}): Doc {
  return {
    insertedCount: r.insertedCount,
    matchedCount: r.matchedCount,
    modifiedCount: r.modifiedCount,
    deletedCount: r.deletedCount,
    upsertedCount: r.upsertedCount,
    upsertedIds: { ...r.upsertedIds },
    insertedIds: { ...r.insertedIds },
  };
}

/** Runs one spec operation; the driver's result, or its error thrown as is. */
export async function runOperation(op: Doc, ctx: TestContext): Promise<unknown> {
  const name = op.name as string;
  const args = (op.arguments as Doc | undefined) ?? {};
  const target = ctx.entities.get(op.object as string);
  if (op.object === 'testRunner') return runnerOperation(name, args, ctx);
  if (target === undefined) throw new Mismatch(`unknown entity ${String(op.object)}`);
  if (args.session !== undefined) {
    args.session = ctx.entities.get(args.session as string);
  }
  if (target instanceof MongoClient) {
    if (name !== 'clientBulkWrite') throw new Mismatch(`unsupported client operation ${name}`);
    // { insertOne: { namespace, document } } -> { name: 'insertOne', namespace, document }
    const models = (args.models as Doc[]).map((m) => {
      const [kind, spec] = Object.entries(m)[0] as [string, Doc];
      return { name: kind, ...spec };
    });
    return target.bulkWrite(models as never, options(args, ['models']));
  }
  if (!(target instanceof Object) || !('collectionName' in target)) {
    return databaseOperation(target as Db, name, args);
  }
  const coll = target as Collection;
  switch (name) {
    case 'aggregate':
      return coll.aggregate(args.pipeline as Doc[], options(args, ['pipeline'])).toArray();
    case 'bulkWrite': {
      const r = await coll.bulkWrite(args.requests as never, options(args, ['requests']));
      return bulkResult(r);
    }
    case 'countDocuments':
      return coll.countDocuments(args.filter as Doc, options(args, ['filter']));
    case 'count':
      return coll.count(args.filter as Doc, options(args, ['filter']));
    case 'estimatedDocumentCount':
      return coll.estimatedDocumentCount(options(args, []));
    case 'deleteMany':
      return coll.deleteMany(args.filter as Doc, options(args, ['filter']));
    case 'deleteOne':
      return coll.deleteOne(args.filter as Doc, options(args, ['filter']));
    case 'distinct':
      return coll.distinct(
        args.fieldName as string,
        (args.filter as Doc) ?? {},
        options(args, ['fieldName', 'filter']),
      );
    case 'find':
      return coll.find(args.filter as Doc, options(args, ['filter'])).toArray();
    case 'findOne':
      return coll.findOne(args.filter as Doc, options(args, ['filter']));
    case 'findOneAndDelete':
      return coll.findOneAndDelete(args.filter as Doc, options(args, ['filter']));
    case 'findOneAndReplace':
      return coll.findOneAndReplace(
        args.filter as Doc,
        args.replacement as Doc,
        options(args, ['filter', 'replacement']),
      );
    case 'findOneAndUpdate':
      return coll.findOneAndUpdate(
        args.filter as Doc,
        args.update as Doc,
        options(args, ['filter', 'update']),
      );
    case 'insertMany': {
      const r = await coll.insertMany(args.documents as Doc[], options(args, ['documents']));
      return { insertedCount: r.insertedCount, insertedIds: { ...r.insertedIds } };
    }
    case 'insertOne':
      return coll.insertOne(args.document as Doc, options(args, ['document']));
    case 'replaceOne':
      return coll.replaceOne(
        args.filter as Doc,
        args.replacement as Doc,
        options(args, ['filter', 'replacement']),
      );
    case 'updateMany':
      return coll.updateMany(
        args.filter as Doc,
        args.update as Doc,
        options(args, ['filter', 'update']),
      );
    case 'updateOne':
      return coll.updateOne(
        args.filter as Doc,
        args.update as Doc,
        options(args, ['filter', 'update']),
      );
    case 'createIndex':
      return coll.createIndex(args.keys as never, options(args, ['keys']));
    case 'drop':
      return coll.drop(options(args, []));
    default:
      throw new Mismatch(`unsupported collection operation ${name}`);
  }
}

async function databaseOperation(db: Db, name: string, args: Doc): Promise<unknown> {
  switch (name) {
    case 'aggregate':
      return db.aggregate(args.pipeline as Doc[], options(args, ['pipeline'])).toArray();
    case 'createCollection':
      await db.createCollection(args.collection as string, options(args, ['collection']));
      return undefined;
    case 'dropCollection':
      await db.dropCollection(args.collection as string, options(args, ['collection']));
      return undefined;
    case 'modifyCollection':
      return db.command({
        collMod: args.collection,
        ...options(args, ['collection']),
      });
    case 'runCommand':
      return db.command(args.command as Doc, options(args, ['command', 'commandName']));
    case 'listCollections':
      return db.listCollections(args.filter as Doc, options(args, ['filter'])).toArray();
    default:
      throw new Mismatch(`unsupported database operation ${name}`);
  }
}

async function runnerOperation(name: string, args: Doc, ctx: TestContext): Promise<unknown> {
  switch (name) {
    case 'failPoint': {
      const client = ctx.clients.get(args.client as string)!.client;
      const fp = args.failPoint as Doc;
      await client.db('admin').command(fp);
      ctx.failPoints.push({ client, name: fp.configureFailPoint as string });
      return undefined;
    }
    case 'assertCollectionExists':
    case 'assertCollectionNotExists': {
      const names = await ctx.internal
        .db(args.databaseName as string)
        .listCollections({ name: args.collectionName as string }, { nameOnly: true })
        .toArray();
      const want = name === 'assertCollectionExists';
      if (names.length > 0 !== want)
        throw new Mismatch(`collection ${String(args.collectionName)} exists: ${!want}`);
      return undefined;
    }
    default:
      throw new Mismatch(`unsupported test runner operation ${name}`);
  }
}
