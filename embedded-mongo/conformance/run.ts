// Conformance runner: MongoDB's CRUD unified-format specification tests against a fresh in-memory
// embedded store, through the official `mongodb` driver. It implements the subset of the unified
// test format the CRUD tests use (see README.md in this folder).
//
//   npm run conformance -- [path to a mongodb/specifications checkout] [--file substring] [--verbose]
//
// Prints per-file pass/fail/skip counts, each failing test with a one-line reason, and the pass
// rate over the tests that apply to a MongoDB 7.0 standalone.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  Binary,
  BSONRegExp,
  Decimal128,
  Double,
  BSON,
  Int32,
  Long,
  MaxKey,
  MinKey,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  ObjectId,
  Timestamp,
  type Collection,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Db,
  type Document,
} from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../index';

/** The server this runner stands in for: a MongoDB 7.0 standalone. */
const SERVER_VERSION = [7, 0, 0];
const TOPOLOGY = 'single';

type Doc = Record<string, unknown>;
const { EJSON } = BSON;

// ---------------------------------------------------------------- arguments and files

function parseArgs(argv: string[]): { dir: string; only?: string; verbose: boolean } {
  let dir = process.env.MONGODB_SPECS_DIR ?? '';
  let only: string | undefined;
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--file') only = argv[++i];
    else if (argv[i] === '--verbose') verbose = true;
    else dir = argv[i];
  }
  if (!dir) {
    console.error(
      'Usage: npm run conformance -- <path to a mongodb/specifications checkout> [--file name] [--verbose]\n' +
        '(or set MONGODB_SPECS_DIR). See embedded-mongo/conformance/README.md.',
    );
    process.exit(2);
  }
  for (const sub of ['source/crud/tests/unified', 'crud/tests/unified', '.']) {
    const d = path.resolve(dir, sub);
    if (existsSync(d) && readdirSync(d).some((f) => f.endsWith('.json'))) {
      return { dir: d, only, verbose };
    }
  }
  console.error(`No unified CRUD test files (*.json) found under ${dir}`);
  process.exit(2);
}

// ---------------------------------------------------------------- requirements

function versionOf(s: string): number[] {
  const parts = s.split('.').map((x) => Number(x));
  while (parts.length < 3) parts.push(0);
  return parts;
}

function cmpVersion(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Whether one runOnRequirement holds for a 7.0 standalone without auth. */
function requirementHolds(r: Doc): boolean {
  if (typeof r.minServerVersion === 'string') {
    if (cmpVersion(SERVER_VERSION, versionOf(r.minServerVersion)) < 0) return false;
  }
  if (typeof r.maxServerVersion === 'string') {
    if (cmpVersion(SERVER_VERSION, versionOf(r.maxServerVersion)) > 0) return false;
  }
  if (Array.isArray(r.topologies) && !r.topologies.includes(TOPOLOGY)) return false;
  if (r.serverless === 'require') return false;
  if (r.auth === true) return false;
  if (r.csfle === true) return false;
  if (r.serverParameters !== undefined) return false;
  return true;
}

function requirementsHold(list: unknown): boolean {
  if (!Array.isArray(list) || list.length === 0) return true;
  return list.some((r) => requirementHolds(r as Doc));
}

/**
 * Tests of driver behaviour that the official Node.js driver (which this runner uses) does not
 * have; they say nothing about the server. Counted apart, not as passes or failures.
 */
const NULL_ID = 'the Node.js driver replaces a null _id with an ObjectId before sending';
const BYPASS = 'the Node.js driver omits bypassDocumentValidation: false';
const DRIVER_SKIPS: Record<string, Record<string, string>> = {
  'bypassDocumentValidation.json': {
    'Aggregate with $out passes bypassDocumentValidation: false': BYPASS,
    'BulkWrite passes bypassDocumentValidation: false': BYPASS,
    'FindOneAndReplace passes bypassDocumentValidation: false': BYPASS,
    'FindOneAndUpdate passes bypassDocumentValidation: false': BYPASS,
    'InsertMany passes bypassDocumentValidation: false': BYPASS,
  },
  'create-null-ids.json': {
    'inserting _id with type null via insertOne': NULL_ID,
    'inserting _id with type null via insertMany': NULL_ID,
    'inserting _id with type null via bulkWrite': NULL_ID,
  },
};

function driverSkip(file: string, test: Doc): string | null {
  return DRIVER_SKIPS[file]?.[String(test.description)] ?? null;
}

// ---------------------------------------------------------------- matching

class Mismatch extends Error {}

interface MatchEnv {
  entities: Map<string, unknown>;
}

function describe(v: unknown): string {
  try {
    return EJSON.stringify(v as Document, { relaxed: true }).slice(0, 200);
  } catch {
    return String(v);
  }
}

function isDoc(v: unknown): v is Doc {
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
function match(expected: unknown, actual: unknown, env: MatchEnv, where: string, root: boolean) {
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

function matchResult(op: Doc, actual: unknown, env: MatchEnv): void {
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

// ---------------------------------------------------------------- entities and operations

/** The driver keeps some command fields (sort, hint) as Maps; the tests expect documents. */
function plainMaps(v: unknown): unknown {
  if (v instanceof Map) {
    const out: Doc = {};
    for (const [k, x] of v) out[String(k)] = plainMaps(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(plainMaps);
  if (isDoc(v)) {
    const out: Doc = {};
    for (const [k, x] of Object.entries(v)) out[k] = plainMaps(x);
    return out;
  }
  return v;
}

interface ClientEntity {
  client: MongoClient;
  observe: Set<string>;
  ignore: Set<string>;
  events: Doc[];
}

interface TestContext {
  uri: string;
  clients: Map<string, ClientEntity>;
  entities: Map<string, unknown>;
  internal: MongoClient;
}

/** Client option names from the unified format's uriOptions (the driver spells some differently). */
function clientOptions(uriOptions: Doc | undefined): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(uriOptions ?? {})) {
    if (k === 'w') out.writeConcern = { ...((out.writeConcern as Doc) ?? {}), w: v };
    else if (k === 'readConcernLevel') out.readConcern = { level: v };
    else out[k] = v;
  }
  return out;
}

async function createEntities(list: Doc[], ctx: TestContext): Promise<void> {
  for (const item of list) {
    const [kind, spec] = Object.entries(item)[0] as [string, Doc];
    const id = spec.id as string;
    if (kind === 'client') {
      const observe = new Set((spec.observeEvents as string[] | undefined) ?? []);
      const ignore = new Set(
        ((spec.ignoreCommandMonitoringEvents as string[] | undefined) ?? []).concat([
          'configureFailPoint',
        ]),
      );
      const client = new MongoClient(ctx.uri, {
        monitorCommands: true,
        serverSelectionTimeoutMS: 5000,
        ...clientOptions(spec.uriOptions as Doc | undefined),
      });
      const ent: ClientEntity = { client, observe, ignore, events: [] };
      const SENSITIVE = new Set(['hello', 'ismaster', 'saslstart', 'saslcontinue', 'getnonce']);
      const record = (kind: string) => (e: CommandStartedEvent | CommandSucceededEvent) => {
        if (!observe.has(kind)) return;
        if (ignore.has(e.commandName) || SENSITIVE.has(e.commandName.toLowerCase())) return;
        if (kind === 'commandStartedEvent') {
          const s = e as CommandStartedEvent;
          ent.events.push({
            commandStartedEvent: {
              command: plainMaps(s.command),
              commandName: s.commandName,
              databaseName: s.databaseName,
            },
          });
        } else {
          const s = e as CommandSucceededEvent;
          ent.events.push({
            commandSucceededEvent: { reply: s.reply, commandName: s.commandName },
          });
        }
      };
      client.on('commandStarted', record('commandStartedEvent'));
      client.on('commandSucceeded', record('commandSucceededEvent'));
      await client.connect();
      ctx.clients.set(id, ent);
      ctx.entities.set(id, client);
    } else if (kind === 'database') {
      const client = ctx.clients.get(spec.client as string)!.client;
      ctx.entities.set(id, client.db(spec.databaseName as string, spec.databaseOptions as Doc));
    } else if (kind === 'collection') {
      const db = ctx.entities.get(spec.database as string) as Db;
      ctx.entities.set(
        id,
        db.collection(spec.collectionName as string, spec.collectionOptions as Doc),
      );
    } else if (kind === 'session') {
      const client = ctx.clients.get(spec.client as string)!.client;
      ctx.entities.set(id, client.startSession());
    } else {
      throw new Mismatch(`unsupported entity type ${kind}`);
    }
  }
}

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

function bulkResult(r: {
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

async function runOperation(op: Doc, ctx: TestContext): Promise<unknown> {
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

const failPoints: { client: MongoClient; name: string }[] = [];

async function runnerOperation(name: string, args: Doc, ctx: TestContext): Promise<unknown> {
  switch (name) {
    case 'failPoint': {
      const client = ctx.clients.get(args.client as string)!.client;
      const fp = args.failPoint as Doc;
      await client.db('admin').command(fp);
      failPoints.push({ client, name: fp.configureFailPoint as string });
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

function isClientError(e: unknown): boolean {
  if (e instanceof MongoServerError || e instanceof MongoBulkWriteError) return false;
  return true;
}

function checkError(expected: Doc, e: unknown, env: MatchEnv): void {
  const err = e as Doc & Error;
  if (expected.isClientError === true && !isClientError(e))
    throw new Mismatch(`expected a client error, got a server error: ${err.message}`);
  if (expected.isClientError === false && isClientError(e))
    throw new Mismatch(`expected a server error, got a client error: ${err.message}`);
  if (typeof expected.errorContains === 'string') {
    if (!String(err.message).toLowerCase().includes(expected.errorContains.toLowerCase()))
      throw new Mismatch(
        `error message ${JSON.stringify(err.message)} lacks ${JSON.stringify(expected.errorContains)}`,
      );
  }
  if (expected.errorCode !== undefined && err.code !== expected.errorCode)
    throw new Mismatch(
      `expected error code ${String(expected.errorCode)}, got ${String(err.code)} (${err.message})`,
    );
  if (expected.errorCodeName !== undefined && err.codeName !== expected.errorCodeName)
    throw new Mismatch(
      `expected codeName ${String(expected.errorCodeName)}, got ${String(err.codeName)} (${err.message})`,
    );
  if (Array.isArray(expected.errorLabelsContain)) {
    for (const l of expected.errorLabelsContain as string[]) {
      if (!(e as MongoServerError).hasErrorLabel?.(l)) throw new Mismatch(`missing label ${l}`);
    }
  }
  if (Array.isArray(expected.errorLabelsOmit)) {
    for (const l of expected.errorLabelsOmit as string[]) {
      if ((e as MongoServerError).hasErrorLabel?.(l)) throw new Mismatch(`unexpected label ${l}`);
    }
  }
  if (expected.errorResponse !== undefined) {
    const resp = (err.errorResponse as Doc | undefined) ?? err;
    match(expected.errorResponse, resp, env, 'errorResponse', true);
  }
  if (expected.writeErrors !== undefined) {
    const list = (e as MongoBulkWriteError).writeErrors;
    const byIndex: Doc = {};
    for (const w of Array.isArray(list) ? list : list ? [list] : []) {
      byIndex[String(w.index)] = { code: w.code, message: w.errmsg };
    }
    match(expected.writeErrors, byIndex, env, 'writeErrors', true);
  }
  if (expected.expectResult !== undefined) {
    const r = (e as MongoBulkWriteError).result;
    if (!r) throw new Mismatch('expected a partial result on the error');
    match(expected.expectResult, bulkResult(r), env, 'error.expectResult', true);
  }
}

// ---------------------------------------------------------------- one file

interface FileResult {
  file: string;
  pass: number;
  fail: number;
  skip: number;
  /** Tests of driver behaviour the Node.js driver lacks (DRIVER_SKIPS). */
  driver: { test: string; reason: string }[];
  failures: { test: string; reason: string }[];
}

async function resetData(internal: MongoClient, initial: Doc[] | undefined): Promise<void> {
  for (const d of initial ?? []) {
    const db = internal.db(d.databaseName as string);
    await db
      .collection(d.collectionName as string)
      .drop()
      .catch(() => undefined);
    const opts = (d.createOptions as Doc | undefined) ?? {};
    await db.createCollection(d.collectionName as string, opts);
    const docs = (d.documents as Doc[] | undefined) ?? [];
    if (docs.length) await db.collection(d.collectionName as string).insertMany(docs);
  }
}

async function runTest(
  file: Doc,
  test: Doc,
  server: EmbeddedMongo,
  internal: MongoClient,
): Promise<void> {
  await resetData(internal, file.initialData as Doc[] | undefined);
  const ctx: TestContext = {
    uri: server.uri,
    clients: new Map(),
    entities: new Map(),
    internal,
  };
  const env: MatchEnv = { entities: ctx.entities };
  try {
    await createEntities((file.createEntities as Doc[] | undefined) ?? [], ctx);
    const ops = test.operations as Doc[];
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      let result: unknown;
      let error: unknown;
      try {
        result = await runOperation(op, ctx);
      } catch (e) {
        if (e instanceof Mismatch) throw e;
        error = e;
      }
      const where = `operation ${i} (${String(op.name)})`;
      if (op.expectError !== undefined) {
        if (error === undefined)
          throw new Mismatch(`${where}: expected an error, got ${describe(result)}`);
        try {
          checkError(op.expectError as Doc, error, env);
        } catch (e) {
          throw new Mismatch(`${where}: ${(e as Error).message}`);
        }
        continue;
      }
      if (error !== undefined) {
        const err = error as Doc & Error;
        const code = err.code === undefined ? '' : ` (code ${String(err.code)})`;
        throw new Mismatch(`${where}: unexpected error${code}: ${err.message}`);
      }
      if (op.expectResult !== undefined) {
        try {
          matchResult(op, result, env);
        } catch (e) {
          throw new Mismatch(`${where}: ${(e as Error).message}`);
        }
      }
      if (typeof op.saveResultAsEntity === 'string')
        ctx.entities.set(op.saveResultAsEntity, result);
    }
    for (const expected of (test.expectEvents as Doc[] | undefined) ?? []) {
      const ent = ctx.clients.get(expected.client as string);
      if (!ent) throw new Mismatch(`expectEvents: unknown client ${String(expected.client)}`);
      if (expected.eventType !== undefined && expected.eventType !== 'command') continue;
      const want = expected.events as Doc[];
      const got = ent.events;
      const n = expected.ignoreExtraEvents ? Math.min(got.length, want.length) : got.length;
      if (n !== want.length || got.length < want.length) {
        throw new Mismatch(
          `expectEvents: expected ${want.length} events, got ${got.length}: ` +
            got.map((e) => String((Object.values(e)[0] as Doc).commandName)).join(', '),
        );
      }
      want.forEach((w, i) => {
        const [kind, spec] = Object.entries(w)[0] as [string, Doc];
        const [gotKind, gotEv] = Object.entries(got[i])[0] as [string, Doc];
        if (kind !== gotKind) throw new Mismatch(`event ${i}: expected ${kind}, got ${gotKind}`);
        try {
          for (const [k, v] of Object.entries(spec)) {
            match(v, gotEv[k], env, `event ${i}.${k}`, k === 'command' || k === 'reply');
          }
        } catch (e) {
          throw new Mismatch(`expectEvents: ${(e as Error).message}`);
        }
      });
    }
    for (const o of (test.outcome as Doc[] | undefined) ?? []) {
      const docs = await internal
        .db(o.databaseName as string)
        .collection(o.collectionName as string)
        .find({}, { sort: { _id: 1 } })
        .toArray();
      try {
        match(o.documents, docs, env, `outcome ${String(o.collectionName)}`, false);
      } catch (e) {
        throw new Mismatch((e as Error).message);
      }
    }
  } finally {
    for (const fp of failPoints.splice(0)) {
      await fp.client
        .db('admin')
        .command({ configureFailPoint: fp.name, mode: 'off' })
        .catch(() => undefined);
    }
    for (const v of ctx.entities.values()) {
      if (v instanceof Object && 'endSession' in v && typeof v.endSession === 'function')
        await (v.endSession as () => Promise<void>)().catch(() => undefined);
    }
    for (const c of ctx.clients.values()) await c.client.close();
  }
}

/** A test that has not finished after this long fails (a hung command must not stop the run). */
const TEST_TIMEOUT_MS = 30_000;

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Mismatch(`timed out after ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function runFile(fileName: string, dir: string, verbose: boolean): Promise<FileResult> {
  const text = readFileSync(path.join(dir, fileName), 'utf8');
  const file = EJSON.parse(text, { relaxed: true }) as Doc;
  const res: FileResult = {
    file: fileName,
    pass: 0,
    fail: 0,
    skip: 0,
    driver: [],
    failures: [],
  };
  const tests = file.tests as Doc[];
  const fileApplies = requirementsHold(file.runOnRequirements);
  const server = await startEmbeddedMongo({ port: 0 });
  const internal = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await internal.connect();
    for (const test of tests) {
      const name = String(test.description);
      if (!fileApplies || !requirementsHold(test.runOnRequirements) || test.skipReason) {
        res.skip++;
        continue;
      }
      const driverReason = driverSkip(fileName, test);
      if (driverReason) {
        res.driver.push({ test: name, reason: driverReason });
        continue;
      }
      try {
        await withTimeout(runTest(file, test, server, internal), TEST_TIMEOUT_MS);
        res.pass++;
        if (verbose) console.log(`  ok   ${fileName}: ${name}`);
      } catch (e) {
        res.fail++;
        const reason =
          e instanceof Mismatch ? e.message : `runner error: ${(e as Error).stack ?? String(e)}`;
        res.failures.push({ test: name, reason: reason.split('\n')[0].slice(0, 300) });
      }
    }
  } finally {
    await internal.close();
    await server.stop();
  }
  return res;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const { dir, only, verbose } = parseArgs(process.argv.slice(2));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .filter((f) => !only || f.includes(only))
    .sort();
  const results: FileResult[] = [];
  for (const f of files) results.push(await runFile(f, dir, verbose));
  const w = Math.max(...results.map((r) => r.file.length));
  const col = (n: number) => String(n).padStart(4);
  console.log(`${'file'.padEnd(w)}  pass  fail  skip  driver`);
  for (const r of results) {
    console.log(
      `${r.file.padEnd(w)}  ${col(r.pass)}  ${col(r.fail)}  ${col(r.skip)}  ${col(r.driver.length)}`,
    );
  }
  const driver = results.flatMap((r) => r.driver.map((f) => ({ file: r.file, ...f })));
  if (driver.length) {
    console.log('\nNot run: tests of driver behaviour the Node.js driver does not have:');
    for (const f of driver) console.log(`- ${f.file}: ${f.test} (${f.reason})`);
  }
  const failures = results.flatMap((r) => r.failures.map((f) => ({ file: r.file, ...f })));
  if (failures.length) {
    console.log('\nFailing tests:');
    for (const f of failures) console.log(`- ${f.file}: ${f.test}\n    ${f.reason}`);
  }
  const pass = results.reduce((s, r) => s + r.pass, 0);
  const fail = results.reduce((s, r) => s + r.fail, 0);
  const skip = results.reduce((s, r) => s + r.skip, 0);
  const applicable = pass + fail;
  const rate = applicable ? ((100 * pass) / applicable).toFixed(1) : '0.0';
  const withDriver = applicable + driver.length;
  const rateWithDriver = withDriver ? ((100 * pass) / withDriver).toFixed(1) : '0.0';
  console.log(
    `\n${files.length} files; ${applicable} tests apply to a MongoDB 7.0 standalone ` +
      `(${skip} skipped by their runOnRequirements, ${driver.length} not run as tests of ` +
      `Node.js driver behaviour): ${pass} passed, ${fail} failed, pass rate ${rate}% ` +
      `(${rateWithDriver}% counting the driver tests as failures)`,
  );
  // Non-zero when an applicable test fails, for scripts and CI.
  process.exitCode = fail ? 1 : 0;
}

await main();
