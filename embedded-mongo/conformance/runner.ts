// Running one spec file: a fresh in-memory store for the file, then for each test that applies,
// its initial data, its entities, its operations (each result or error against its
// expectation), its expected events and outcome, and the clean-up (fail points off, sessions
// ended, clients closed) whatever happened. A test that throws a Mismatch fails with that
// reason; one that takes longer than TEST_TIMEOUT_MS fails too.
import { MongoClient } from 'mongodb';

import { type EmbeddedMongo, startEmbeddedMongo } from '../index';
import { createEntities, type TestContext } from './entities';
import { checkError, checkEvents, checkOutcome } from './expectations';
import { describe, type Doc, type MatchEnv, matchResult, Mismatch } from './match';
import { runOperation } from './operations';
import { driverSkip, readSpecFile, requirementsHold } from './spec-files';

/** What became of one file's tests. */
export interface FileResult {
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
    failPoints: [],
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
    checkEvents(test.expectEvents as Doc[] | undefined, ctx.clients, env);
    await checkOutcome(test.outcome as Doc[] | undefined, internal, env);
  } finally {
    for (const fp of ctx.failPoints.splice(0)) {
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

/** The tests of one spec file, each counted as passed, failed, skipped or a driver test. */
export async function runFile(
  fileName: string,
  dir: string,
  verbose: boolean,
): Promise<FileResult> {
  const file = readSpecFile(dir, fileName);
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
