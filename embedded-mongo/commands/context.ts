// What every command handler shares: the limits, the state of one running store, the context of
// one command, argument readers and documents as they are stored.
import { Long, ObjectId } from 'bson';

import type { Op, Rec, Store } from '../engine';
import { badValue, MongoError } from '../errors';
import { type Doc, isPlainObject, normalize, type TypeNote, withTypes } from '../values';
import type { CursorTable } from './cursors';
import type { FailPoints } from './failpoints';
import { checkIdValue } from './field-names';
import type { SessionCache } from './sessions';
import type { CommandStats } from './status';

export const MAX_BSON_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH = 100_000;

/** The state of one running store; nothing here is shared with another store in the process. */
export interface ServerState {
  store: Store;
  /** The open cursors of this store (closed after 10 idle minutes). */
  cursors: CursorTable;
  /** Persists the ops of one command; resolves once they are durable. */
  commit(ops: Op[]): Promise<void>;
  /** The test fail points (configureFailPoint), and whether test commands are on. */
  failPoints: FailPoints;
  /** The logical sessions seen in commands' `lsid` ($listLocalSessions). */
  sessions: SessionCache;
  /** Commands answered, for `serverStatus` (opcounters, metrics.commands). */
  stats: CommandStats;
}

export interface CmdContext {
  state: ServerState;
  db: string;
  connectionId: number;
  log: Op[];
}

export type Handler = (cmd: Doc, ctx: CmdContext) => Doc | Promise<Doc>;

export function asDoc(v: unknown, what: string): Doc {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw new MongoError(14, 'TypeMismatch', `${what} must be an object`);
  return v;
}

export function collName(cmd: Doc, key: string): string {
  const n = cmd[key];
  if (typeof n !== 'string' || !n) {
    throw new MongoError(73, 'InvalidNamespace', `collection name must be a non-empty string`);
  }
  return n;
}

export function toNumber(v: unknown, def = 0): number {
  if (v === undefined || v === null) return def;
  if (typeof v === 'number') return v;
  if (v instanceof Long) return v.toNumber();
  throw badValue(`expected a number, got ${String(v)}`);
}

export function outDoc(rec: Rec): Doc {
  return withTypes(rec.doc, rec.notes);
}

export function storedDoc(raw: unknown, what = 'document'): Rec {
  if (!isPlainObject(raw)) throw badValue(`${what} must be an object`);
  const notes: TypeNote[] = [];
  const doc = normalize(raw, notes) as Doc;
  return { doc, notes: notes.length ? notes : undefined };
}

export function validateForStorage(doc: Doc): void {
  if (Array.isArray(doc._id)) throw badValue(`The '_id' value cannot be of type array`);
  if (doc._id instanceof RegExp) throw badValue(`can't use a regex for _id`);
  // MongoDB 5.0+ stores `$`-prefixed and dotted names (commands/field-names.ts), not in _id.
  checkIdValue(doc._id);
}

/** Moves `_id` first, generating one when missing (as mongod does). */
export function withId(doc: Doc): Doc {
  if (doc._id === undefined) return { _id: new ObjectId(), ...doc };
  if (Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/**
 * One entry of a write command's `writeErrors`, as mongod serialises a WriteError: `index`,
 * `code`, the error's extra information (`keyPattern`/`keyValue` for E11000, `errInfo` for a
 * document validation failure), then `errmsg`. No `codeName` (only command errors carry one).
 */
export function writeError(index: number, e: unknown): Doc {
  if (e instanceof MongoError) return { index, code: e.code, ...e.extra, errmsg: e.message };
  return { index, code: 1, errmsg: (e as Error).message };
}
