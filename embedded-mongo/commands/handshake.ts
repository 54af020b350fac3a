// The handshake and admin commands a driver sends on its own (hello, buildInfo, sessions, …), and
// the clear errors for what a standalone store without users cannot do (transactions, auth).
import { MongoError } from '../errors';
import type { Doc } from '../values';
import { type CmdContext, MAX_BSON_SIZE, MAX_MESSAGE_SIZE, MAX_WRITE_BATCH } from './context';

export function hello(_cmd: Doc, ctx: CmdContext): Doc {
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: MAX_BSON_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: MAX_WRITE_BATCH,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}

export function buildInfo(): Doc {
  return {
    version: '7.0.0',
    gitVersion: 'embedded',
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_SIZE,
    storageEngines: ['embedded'],
    modules: [],
    ok: 1,
  };
}

export function transactionsUnsupported(): never {
  throw new MongoError(
    20,
    'IllegalOperation',
    'Transactions are not supported by the embedded store (it is a standalone server); ' +
      'use a real MongoDB replica set through MONGODB_URI',
  );
}

export function authUnsupported(): never {
  throw new MongoError(
    18,
    'AuthenticationFailed',
    'Authentication (SCRAM) is not supported by the embedded store; connect without credentials or use a real MongoDB server through MONGODB_URI',
  );
}

/** Fields a command body may carry that we accept and ignore. */
export function checkCommandEnvelope(cmd: Doc): void {
  if (cmd.startTransaction === true || cmd.autocommit === false) transactionsUnsupported();
}
