// configureFailPoint / failCommand through the `mongodb` driver, as MongoDB's test commands
// define them (the drivers' spec tests use the same shapes).
import {
  type Db,
  MongoClient,
  MongoNetworkError,
  MongoServerError,
  MongoWriteConcernError,
} from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { type EmbeddedMongo, startEmbeddedMongo } from './index';
import { codeOf } from './test-support/driver-store';

let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;
const extra: MongoClient[] = [];

async function connect(uri: string, appName?: string): Promise<MongoClient> {
  const c = new MongoClient(uri, { serverSelectionTimeoutMS: 3000, appName, retryReads: false });
  await c.connect();
  extra.push(c);
  return c;
}

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 3000, retryReads: false });
  await client.connect();
  db = client.db('fp');
});

afterEach(async () => {
  await client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
  await db.dropDatabase();
});

afterAll(async () => {
  for (const c of extra) await c.close();
  await client?.close();
  await server?.stop();
});

const failCommand = (mode: unknown, data: Record<string, unknown>) =>
  client.db('admin').command({ configureFailPoint: 'failCommand', mode, data });

describe('failCommand', () => {
  it('fails the named command with errorCode for `times` commands, then runs it again', async () => {
    const set = await failCommand({ times: 2 }, { failCommands: ['insert'], errorCode: 2 });
    expect(set).toMatchObject({ ok: 1, count: 0 });
    const c = db.collection('t');
    const e = await c.insertOne({ a: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MongoServerError);
    expect(e).toMatchObject({
      code: 2,
      codeName: 'BadValue',
      errmsg: "Failing command via 'failCommand' failpoint",
    });
    // Commands not named are not affected and do not count.
    expect(await c.countDocuments()).toBe(0);
    expect(await codeOf(c.insertOne({ a: 2 }))).toBe(2);
    await c.insertOne({ a: 3 });
    expect(await c.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ a: 3 }]);
    // `count` is how many times it fired.
    const off = await client
      .db('admin')
      .command({ configureFailPoint: 'failCommand', mode: 'off' });
    expect(off.count).toBe(2);
  });

  it('alwaysOn until turned off; skip lets the first n through', async () => {
    const c = db.collection('t');
    await failCommand('alwaysOn', { failCommands: ['find'], errorCode: 96 });
    for (let i = 0; i < 3; i++) expect(await codeOf(c.findOne({}))).toBe(96);
    await failCommand('off', {});
    expect(await c.findOne({})).toBeNull();
    await failCommand({ skip: 2 }, { failCommands: ['find'], errorCode: 96 });
    expect(await c.findOne({})).toBeNull();
    expect(await c.findOne({})).toBeNull();
    expect(await codeOf(c.findOne({}))).toBe(96);
    expect(await codeOf(c.findOne({}))).toBe(96);
  });

  it('activationProbability 1 always fires, 0 never; times 0 is off', async () => {
    const c = db.collection('t');
    await failCommand({ activationProbability: 1 }, { failCommands: ['find'], errorCode: 96 });
    expect(await codeOf(c.findOne({}))).toBe(96);
    await failCommand({ activationProbability: 0 }, { failCommands: ['find'], errorCode: 96 });
    expect(await c.findOne({})).toBeNull();
    await failCommand({ times: 0 }, { failCommands: ['find'], errorCode: 96 });
    expect(await c.findOne({})).toBeNull();
  });

  it('adds errorLabels to the error', async () => {
    await failCommand(
      { times: 1 },
      { failCommands: ['find'], errorCode: 91, errorLabels: ['TestLabel'] },
    );
    const e = (await db
      .collection('t')
      .findOne({})
      .catch((x: unknown) => x)) as MongoServerError;
    expect(e.code).toBe(91);
    expect(e.codeName).toBe('ShutdownInProgress');
    expect(e.hasErrorLabel('TestLabel')).toBe(true);
  });

  it('closeConnection closes the connection without a reply; the next command reconnects', async () => {
    await failCommand({ times: 1 }, { failCommands: ['insert'], closeConnection: true });
    const c = db.collection('t');
    const e = await c.insertOne({ a: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MongoNetworkError);
    await c.insertOne({ a: 2 });
    expect(await c.countDocuments()).toBe(1);
  });

  it('writeConcernError runs the command and reports the write concern error', async () => {
    await failCommand(
      { times: 1 },
      {
        failCommands: ['insert'],
        writeConcernError: {
          code: 100,
          codeName: 'UnsatisfiableWriteConcern',
          errmsg: 'Not enough data-bearing nodes',
        },
      },
    );
    const c = db.collection('t');
    const e = await c.insertOne({ a: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MongoWriteConcernError);
    expect((e as MongoWriteConcernError).code).toBe(100);
    // The write itself happened.
    expect(await c.countDocuments()).toBe(1);
  });

  it('only fails the commands of the client named by appName, and of the namespace given', async () => {
    const app = await connect(server.uri, 'failing-app');
    const other = await connect(server.uri, 'other-app');
    await failCommand('alwaysOn', {
      failCommands: ['insert'],
      errorCode: 2,
      appName: 'failing-app',
      namespace: 'fp.target',
    });
    expect(await codeOf(app.db('fp').collection('target').insertOne({ a: 1 }))).toBe(2);
    await app.db('fp').collection('elsewhere').insertOne({ a: 1 });
    await other.db('fp').collection('target').insertOne({ a: 1 });
    expect(await db.collection('target').countDocuments()).toBe(1);
  });

  it('blockConnection delays only the blocked connection: other clients are answered meanwhile', async () => {
    const slow = await connect(server.uri, 'slow-app');
    const fast = await connect(server.uri, 'fast-app');
    await fast.db('fp').collection('t').insertOne({ seed: true });
    const { count } = await failCommand(
      { times: 1 },
      { failCommands: ['insert'], blockConnection: true, blockTimeMS: 1500, appName: 'slow-app' },
    );
    const order: string[] = [];
    const blocked = slow
      .db('fp')
      .collection('t')
      .insertOne({ slow: true })
      .then(() => order.push('blocked insert'));
    // The blocked insert has reached the store (and is held there).
    await client
      .db('admin')
      .command({ waitForFailPoint: 'failCommand', timesEntered: count + 1, maxTimeMS: 10_000 });
    for (let i = 0; i < 5; i++) {
      await fast.db('fp').collection('t').findOne({ seed: true });
      await fast.db('fp').collection('t').insertOne({ fast: i });
    }
    order.push('other client done');
    await blocked;
    expect(order).toEqual(['other client done', 'blocked insert']);
    // After the block the command ran normally.
    expect(await db.collection('t').countDocuments({ slow: true })).toBe(1);
  });

  it('waitForFailPoint answers once the fail point has fired the given number of times', async () => {
    const { count } = await failCommand(
      { times: 1 },
      { failCommands: ['insert'], blockConnection: true, blockTimeMS: 300 },
    );
    const waited = client
      .db('admin')
      .command({ waitForFailPoint: 'failCommand', timesEntered: count + 1, maxTimeMS: 10_000 });
    const order: string[] = [];
    void waited.then(() => order.push('waited'));
    await new Promise((r) => setTimeout(r, 50));
    expect(order).toEqual([]);
    await db.collection('t').insertOne({ a: 1 });
    await waited;
    expect(order).toEqual(['waited']);
    const timeout = await codeOf(
      client
        .db('admin')
        .command({ waitForFailPoint: 'failCommand', timesEntered: count + 5, maxTimeMS: 50 }),
    );
    expect(timeout).toBe(50);
  });

  it('blockConnection with errorCode blocks, then fails', async () => {
    await failCommand(
      { times: 1 },
      { failCommands: ['find'], blockConnection: true, blockTimeMS: 50, errorCode: 262 },
    );
    const e = await db
      .collection('t')
      .findOne({})
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 262, codeName: 'ExceededTimeLimit' });
  });
});

describe('configureFailPoint refusals', () => {
  it('refuses other fail points, other databases and bad modes', async () => {
    expect(
      await codeOf(
        client
          .db('admin')
          .command({ configureFailPoint: 'maxTimeAlwaysTimeOut', mode: 'alwaysOn' }),
      ),
    ).toBe(115);
    expect(await codeOf(db.command({ configureFailPoint: 'failCommand', mode: 'off' }))).toBe(13);
    expect(await codeOf(failCommand('sometimes', { failCommands: ['find'] }))).toBe(2);
    expect(
      await codeOf(failCommand('alwaysOn', { failCommands: ['find'], blockConnection: true })),
    ).toBe(2);
  });

  it('is not a command at all when test commands are off (a durable store by default)', async () => {
    const off = await startEmbeddedMongo({ testCommands: false });
    const c = await connect(off.uri);
    try {
      expect(
        await codeOf(c.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' })),
      ).toBe(59);
    } finally {
      await c.close();
      await off.stop();
    }
  });
});
