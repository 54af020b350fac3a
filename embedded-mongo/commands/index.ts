// The command table: every command the store answers, by lower-cased name, and where each
// family lives (handshake, crud, query, update, aggregate, ddl, indexes, cursors).
import { unsupported } from '../errors';
import { aggregate } from './aggregate';
import { collMod } from './collmod';
import type { Handler } from './context';
import { count, del, distinct, find, findAndModify, insert, update } from './crud';
import { getMore, killCursors } from './cursors';
import {
  create,
  drop,
  dropDatabase,
  listCollections,
  listDatabases,
  renameCollection,
} from './ddl';
import { explain } from './explain';
import { configureFailPoint } from './failpoints';
import { authUnsupported, buildInfo, hello, transactionsUnsupported } from './handshake';
import { createIndexes, dropIndexes, listIndexes } from './indexes';
import { serverStatus, top } from './status';

export { type CmdContext, MAX_MESSAGE_SIZE, type ServerState } from './context';
export { CursorTable } from './cursors';
export { type FailAction, FailPoints, waitForFailPoint, withWriteConcernError } from './failpoints';
export { checkCommandEnvelope } from './handshake';
export { SessionCache } from './sessions';
export { CommandStats } from './status';

export const HANDLERS: Record<string, Handler> = {
  hello,
  ismaster: hello,
  ping: () => ({ ok: 1 }),
  buildinfo: buildInfo,
  serverstatus: serverStatus,
  top,
  listdatabases: listDatabases,
  create,
  drop,
  dropdatabase: dropDatabase,
  renamecollection: renameCollection,
  collmod: collMod,
  listcollections: listCollections,
  createindexes: createIndexes,
  listindexes: listIndexes,
  dropindexes: dropIndexes,
  deleteindexes: dropIndexes,
  insert,
  update,
  delete: del,
  find,
  getmore: getMore,
  killcursors: killCursors,
  findandmodify: findAndModify,
  aggregate,
  count,
  distinct,
  explain,
  configurefailpoint: configureFailPoint,
  endsessions: (cmd, ctx) => {
    ctx.state.sessions.end(cmd.endSessions);
    return { ok: 1 };
  },
  refreshsessions: () => ({ ok: 1 }),
  killsessions: () => ({ ok: 1 }),
  killallsessions: () => ({ ok: 1 }),
  whatsmyuri: () => ({ you: '127.0.0.1:0', ok: 1 }),
  connectionstatus: () => ({
    authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
    ok: 1,
  }),
  getlasterror: () => ({ n: 0, err: null, ok: 1 }),
  hostinfo: () => ({ system: { hostname: '127.0.0.1' }, ok: 1 }),
  committransaction: transactionsUnsupported,
  aborttransaction: transactionsUnsupported,
  saslstart: authUnsupported,
  saslcontinue: authUnsupported,
  authenticate: authUnsupported,
  mapreduce: () => {
    throw unsupported('mapReduce');
  },
  watch: () => {
    throw unsupported('Change streams');
  },
  bulkwrite: () => {
    throw unsupported('The bulkWrite command (client-level bulk write)');
  },
};
