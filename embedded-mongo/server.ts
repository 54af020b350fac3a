// TCP server: frames messages, dispatches commands, writes replies.
import { createServer, type Server, type Socket } from 'node:net';

import {
  checkCommandEnvelope,
  type CmdContext,
  CommandStats,
  CursorTable,
  type FailAction,
  FailPoints,
  HANDLERS,
  MAX_MESSAGE_SIZE,
  type ServerState,
  SessionCache,
  waitForFailPoint,
  withWriteConcernError,
} from './commands/index';
import type { Op } from './engine';
import { MongoError } from './errors';
import { type Doc, normalize } from './values';
import {
  encodeMsgReply,
  encodeOpReply,
  type Incoming,
  OP_MSG,
  OP_QUERY,
  parseMessage,
  splitMessages,
} from './wire';

/** Command fields holding documents whose number types we record before normalising. */
const RAW_FIELDS = new Set(['documents', 'updates']);

function normalizeCommand(cmd: Doc): Doc {
  const out: Doc = {};
  for (const k of Object.keys(cmd)) out[k] = RAW_FIELDS.has(k) ? cmd[k] : normalize(cmd[k]);
  return out;
}

function errorReply(e: unknown): Doc {
  if (e instanceof MongoError) {
    return { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra };
  }
  const msg = e instanceof Error ? e.message : String(e);
  return {
    ok: 0,
    errmsg: `embedded-mongo internal error: ${msg}`,
    code: 1,
    codeName: 'InternalError',
  };
}

/** One client connection: its id, the application name from its handshake, its blocked tail. */
interface Connection {
  socket: Socket;
  id: number;
  appName?: string;
  /** Resolves once the connection's blocked command (and those queued behind it) has started. */
  gate: Promise<void> | null;
}

export class WireServer {
  private server: Server;
  private sockets = new Set<Socket>();
  private connectionIds = 0;
  /** Request ids of this server's replies. */
  private nextRequestId = 1;
  /** Serialises command execution so each command sees and logs a consistent state. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly state: ServerState) {
    this.server = createServer((s) => this.onConnection(s));
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
    await this.queue;
  }

  private onConnection(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const conn: Connection = { socket, id: ++this.connectionIds, gate: null };
    // Chunks are only joined once a whole message has arrived, so large messages stay linear.
    let buf: Buffer = Buffer.alloc(0);
    const parts: Buffer[] = [];
    let partsLen = 0;
    socket.on('data', (chunk: Buffer) => {
      if (parts.length) {
        parts.push(chunk);
        partsLen += chunk.length;
        const need = parts[0].length >= 4 ? parts[0].readInt32LE(0) : 4;
        if (partsLen < need) return;
        buf = Buffer.concat(parts, partsLen);
        parts.length = 0;
        partsLen = 0;
      } else buf = chunk;
      let messages: Buffer[];
      try {
        ({ messages, rest: buf } = splitMessages(buf));
      } catch {
        socket.destroy();
        return;
      }
      if (buf.length) {
        parts.push(buf);
        partsLen = buf.length;
      }
      for (const m of messages) this.receive(conn, m);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  /**
   * One message from a connection: the failCommand fail point is decided on arrival; a blocked
   * command waits here, outside the store's queue, so only its own connection waits (later
   * messages of that connection wait behind it, in order).
   */
  private receive(conn: Connection, raw: Buffer): void {
    let msg: Incoming;
    try {
      msg = parseMessage(raw);
    } catch {
      conn.socket.destroy();
      return;
    }
    if (msg.opCode !== OP_MSG && msg.opCode !== OP_QUERY) {
      // OP_COMPRESSED is never negotiated; legacy opcodes are gone from modern drivers.
      conn.socket.destroy();
      return;
    }
    const name = Object.keys(msg.command)[0] ?? '';
    if (name === 'hello' || name.toLowerCase() === 'ismaster') {
      const client = msg.command.client as Doc | undefined;
      const app = (client?.application as Doc | undefined)?.name;
      if (typeof app === 'string') conn.appName = app;
    }
    const failPoints = this.state.failPoints;
    const db = typeof msg.command.$db === 'string' ? msg.command.$db : 'admin';
    if (name === 'waitForFailPoint' && msg.opCode === OP_MSG) {
      // It waits for other connections' commands: never inside the queue.
      waitForFailPoint(normalize(msg.command) as Doc, db, failPoints).then(
        (reply) => this.send(conn.socket, msg, reply),
        (e: unknown) => this.send(conn.socket, msg, errorReply(e)),
      );
      return;
    }
    const action = failPoints.active ? failPoints.decide(msg.command, db, conn.appName) : null;
    if (!action?.blockMs && !conn.gate) {
      this.start(conn, msg, action);
      return;
    }
    const after = conn.gate ?? Promise.resolve();
    const gate: Promise<void> = after
      .then(() =>
        // The connection's socket keeps the process alive; a stopped store does not wait.
        action?.blockMs
          ? new Promise<void>((r) => setTimeout(r, action.blockMs).unref())
          : undefined,
      )
      .then(() => {
        if (conn.gate === gate) conn.gate = null;
        if (!conn.socket.destroyed) this.start(conn, msg, action);
      });
    conn.gate = gate;
  }

  private start(conn: Connection, msg: Incoming, action: FailAction | null): void {
    if (action?.close) {
      conn.socket.destroy();
      return;
    }
    if (action?.error) {
      this.send(conn.socket, msg, action.error);
      return;
    }
    // Commands run one at a time in arrival order; the durable ack happens outside the queue so
    // concurrent writers share one fsync (group commit).
    const run = this.queue.then(() => this.execute(msg, conn.id));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    run.then(
      async ({ reply, commit }) => {
        let body = reply;
        if (commit) {
          try {
            await commit;
          } catch (e) {
            body = errorReply(
              new MongoError(1, 'InternalError', `journal write failed: ${(e as Error).message}`),
            );
          }
        }
        if (action) body = withWriteConcernError(body, action);
        this.send(conn.socket, msg, body);
      },
      () => conn.socket.destroy(),
    );
  }

  private send(socket: Socket, msg: Incoming, body: Doc): void {
    if (msg.moreToCome || socket.destroyed) return;
    const encode = (doc: Doc) =>
      msg.opCode === OP_QUERY
        ? encodeOpReply(this.nextRequestId++ & 0x7fffffff, msg.requestId, doc)
        : encodeMsgReply(this.nextRequestId++ & 0x7fffffff, msg.requestId, doc);
    let out: Buffer;
    try {
      out = encode(body);
      if (out.length > MAX_MESSAGE_SIZE) {
        throw new MongoError(
          10334,
          'BSONObjectTooLarge',
          `reply of ${out.length} bytes is too large`,
        );
      }
    } catch (e) {
      // Never leave the client waiting: a reply that cannot be encoded becomes an error.
      out = encode(
        errorReply(
          e instanceof MongoError
            ? e
            : new MongoError(1, 'InternalError', `cannot encode reply: ${(e as Error).message}`),
        ),
      );
    }
    socket.write(out);
  }

  private async execute(
    msg: Incoming,
    connectionId: number,
  ): Promise<{ reply: Doc; commit?: Promise<void> }> {
    const raw = msg.command;
    const name = Object.keys(raw)[0] ?? '';
    const lname = name.toLowerCase();
    let db = typeof raw.$db === 'string' ? raw.$db : 'admin';
    if (msg.opCode === OP_QUERY && msg.fullCollectionName)
      db = msg.fullCollectionName.split('.')[0];
    const ctx: CmdContext = { state: this.state, db, connectionId, log: [] };
    let reply: Doc;
    let finish: ((ok: boolean) => void) | undefined;
    try {
      if (msg.opCode === OP_QUERY && !['ismaster', 'hello'].includes(lname)) {
        throw new MongoError(
          352,
          'UnsupportedOpQueryCommand',
          `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`,
        );
      }
      const cmd = normalizeCommand(raw);
      finish = this.state.stats.record(name, cmd, db);
      this.state.sessions.touch(cmd.lsid);
      checkCommandEnvelope(cmd);
      const handler = HANDLERS[lname];
      if (!handler) {
        throw new MongoError(
          59,
          'CommandNotFound',
          `no such command: '${name}' (the embedded store does not support it; use a real MongoDB server through MONGODB_URI)`,
        );
      }
      reply = await handler(cmd, ctx);
    } catch (e) {
      reply = errorReply(e);
    }
    finish?.(reply.ok !== 0);
    // Every mutation a command made (even one that then failed part-way, like an ordered
    // insert stopping at a duplicate) is journaled before the reply is sent.
    const commit = ctx.log.length ? this.state.commit(ctx.log as Op[]) : undefined;
    return { reply, commit };
  }
}

export function newState(
  store: ServerState['store'],
  commit: ServerState['commit'],
  opts: { testCommands?: boolean } = {},
): ServerState {
  return {
    store,
    cursors: new CursorTable(),
    commit,
    failPoints: new FailPoints(opts.testCommands ?? false),
    sessions: new SessionCache(),
    stats: new CommandStats(),
  };
}
