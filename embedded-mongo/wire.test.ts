// Raw wire protocol: OP_QUERY handshake, OP_MSG sections, checksum and moreToCome.
import { connect, type Socket } from 'node:net';
import { crc32 } from 'node:zlib';

import { deserialize, type Document, serialize } from 'bson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EmbeddedMongo, startEmbeddedMongo } from './index';

let server: EmbeddedMongo;
let sock: Socket;
let inbox = Buffer.alloc(0);
const waiting: (() => void)[] = [];

beforeAll(async () => {
  server = await startEmbeddedMongo();
  sock = connect(server.port, '127.0.0.1');
  await new Promise<void>((r) => sock.once('connect', () => r()));
  sock.on('data', (d) => {
    inbox = Buffer.concat([inbox, d]);
    waiting.splice(0).forEach((f) => f());
  });
});

afterAll(async () => {
  sock?.destroy();
  await server?.stop();
});

async function readMessage(): Promise<Buffer> {
  for (;;) {
    if (inbox.length >= 4 && inbox.length >= inbox.readInt32LE(0)) {
      const len = inbox.readInt32LE(0);
      const msg = inbox.subarray(0, len);
      inbox = inbox.subarray(len);
      return msg;
    }
    await new Promise<void>((r) => waiting.push(r));
  }
}

function header(len: number, id: number, op: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(len, 0);
  h.writeInt32LE(id, 4);
  h.writeInt32LE(0, 8);
  h.writeInt32LE(op, 12);
  return h;
}

function opMsg(
  id: number,
  body: Document,
  opts: { seq?: [string, Document[]]; checksum?: boolean; moreToCome?: boolean } = {},
): Buffer {
  const parts: Buffer[] = [Buffer.from([0]), Buffer.from(serialize(body))];
  if (opts.seq) {
    const ident = Buffer.from(opts.seq[0] + '\0');
    const docs = Buffer.concat(opts.seq[1].map((d) => Buffer.from(serialize(d))));
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + ident.length + docs.length);
    parts.push(Buffer.from([1]), size, ident, docs);
  }
  const flags = Buffer.alloc(4);
  flags.writeUInt32LE((opts.checksum ? 1 : 0) | (opts.moreToCome ? 2 : 0));
  const payload = Buffer.concat([flags, ...parts]);
  const len = 16 + payload.length + (opts.checksum ? 4 : 0);
  const msg = Buffer.concat([header(len, id, 2013), payload]);
  if (!opts.checksum) return msg;
  const sum = Buffer.alloc(4);
  sum.writeUInt32LE(crc32(msg) >>> 0);
  return Buffer.concat([msg, sum]);
}

function parseMsgReply(msg: Buffer): Document {
  expect(msg.readInt32LE(12)).toBe(2013);
  expect(msg[20]).toBe(0);
  return deserialize(msg.subarray(21));
}

describe('wire protocol', () => {
  it('answers the legacy OP_QUERY handshake with OP_REPLY', async () => {
    const q = Buffer.from(serialize({ isMaster: 1, client: { driver: { name: 'raw' } } }));
    const ns = Buffer.from('admin.$cmd\0');
    const nums = Buffer.alloc(8);
    nums.writeInt32LE(-1, 4);
    const flags = Buffer.alloc(4);
    const body = Buffer.concat([flags, ns, nums, q]);
    sock.write(Buffer.concat([header(16 + body.length, 7, 2004), body]));
    const reply = await readMessage();
    expect(reply.readInt32LE(8)).toBe(7); // responseTo
    expect(reply.readInt32LE(12)).toBe(1); // OP_REPLY
    expect(reply.readInt32LE(32)).toBe(1); // numberReturned
    const doc = deserialize(reply.subarray(36));
    expect(doc).toMatchObject({ ok: 1, ismaster: true, maxWireVersion: 21, minWireVersion: 0 });
    expect(doc.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    expect(typeof doc.connectionId).toBe('number');
    expect(doc.topologyVersion).toBeUndefined();
  });

  it('accepts kind-1 document sequences and the checksum flag', async () => {
    sock.write(
      opMsg(
        8,
        { insert: 'seq', $db: 'wire', ordered: true },
        {
          seq: [
            'documents',
            [
              { _id: 1, a: 'x' },
              { _id: 2, a: 'y' },
            ],
          ],
          checksum: true,
        },
      ),
    );
    const reply = await readMessage();
    expect(reply.readInt32LE(8)).toBe(8);
    expect(parseMsgReply(reply)).toEqual({ n: 2, ok: 1 });
  });

  it('sends no reply for moreToCome and keeps serving', async () => {
    sock.write(opMsg(9, { endSessions: [], $db: 'admin' }, { moreToCome: true }));
    sock.write(opMsg(10, { find: 'seq', filter: { a: 'y' }, $db: 'wire' }));
    const reply = await readMessage();
    expect(reply.readInt32LE(8)).toBe(10);
    const doc = parseMsgReply(reply);
    expect(doc.cursor.firstBatch).toEqual([{ _id: 2, a: 'y' }]);
    expect(Number(doc.cursor.id)).toBe(0);
    expect(doc.cursor.ns).toBe('wire.seq');
  });

  it('closes the connection on a bad checksum instead of hanging', async () => {
    const s2 = connect(server.port, '127.0.0.1');
    await new Promise<void>((r) => s2.once('connect', () => r()));
    const msg = opMsg(11, { ping: 1, $db: 'admin' }, { checksum: true });
    msg.writeUInt32LE(0xdeadbeef, msg.length - 4);
    const closed = new Promise<void>((r) => s2.once('close', () => r()));
    s2.write(msg);
    await closed;
  });
});
