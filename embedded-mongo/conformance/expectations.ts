// The expectations of a test besides an operation's result (match.ts): the error an operation
// should raise (`expectError`), the command events a client should have seen (`expectEvents`)
// and the collections' contents afterwards (`outcome`). Each throws a Mismatch when not met.
import { MongoBulkWriteError, type MongoClient, MongoServerError } from 'mongodb';

import type { ClientEntity } from './entities';
import { type Doc, match, type MatchEnv, Mismatch } from './match';
import { bulkResult } from './operations';

function isClientError(e: unknown): boolean {
  if (e instanceof MongoServerError || e instanceof MongoBulkWriteError) return false;
  return true;
}

/** An operation's error against its `expectError`. */
export function checkError(expected: Doc, e: unknown, env: MatchEnv): void {
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

/** Each client's recorded command events against the test's `expectEvents`. */
export function checkEvents(
  expectEvents: Doc[] | undefined,
  clients: Map<string, ClientEntity>,
  env: MatchEnv,
): void {
  for (const expected of expectEvents ?? []) {
    const ent = clients.get(expected.client as string);
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
}

/** The collections' documents after the test (sorted by `_id`) against its `outcome`. */
export async function checkOutcome(
  outcome: Doc[] | undefined,
  internal: MongoClient,
  env: MatchEnv,
): Promise<void> {
  for (const o of outcome ?? []) {
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
}
