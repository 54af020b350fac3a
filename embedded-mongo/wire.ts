// MongoDB wire protocol framing: OP_QUERY (legacy handshake) / OP_REPLY and OP_MSG.
import { crc32 } from 'node:zlib';

import { deserialize, serialize } from 'bson';

import type { Doc } from './values';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

const CHECKSUM_PRESENT = 1;
export const MORE_TO_COME = 2;

export interface Incoming {
  requestId: number;
  opCode: number;
  /** OP_MSG: the command body with kind-1 sequences merged in as arrays. */
  command: Doc;
  /** OP_QUERY: full collection name, e.g. `admin.$cmd`. */
  fullCollectionName?: string;
  moreToCome: boolean;
}

const DESER = { promoteValues: false } as const;

export class ProtocolError extends Error {}

/** Splits complete messages off the front of `buf`; returns them and the unconsumed rest. */
export function splitMessages(buf: Buffer): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let off = 0;
  while (buf.length - off >= 4) {
    const len = buf.readInt32LE(off);
    if (len < 16 || len > 64 * 1024 * 1024) throw new ProtocolError(`bad message length ${len}`);
    if (buf.length - off < len) break;
    messages.push(buf.subarray(off, off + len));
    off += len;
  }
  return { messages, rest: off === 0 ? buf : buf.subarray(off) };
}

function readCString(buf: Buffer, off: number): [string, number] {
  const end = buf.indexOf(0, off);
  if (end < 0) throw new ProtocolError('unterminated cstring');
  return [buf.toString('utf8', off, end), end + 1];
}

export function parseMessage(msg: Buffer): Incoming {
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  if (opCode === OP_MSG) {
    const flags = msg.readUInt32LE(16);
    let end = msg.length;
    if (flags & CHECKSUM_PRESENT) {
      end -= 4;
      const expected = msg.readUInt32LE(end);
      if (crc32(msg.subarray(0, end)) >>> 0 !== expected)
        throw new ProtocolError('OP_MSG checksum mismatch');
    }
    let off = 20;
    let body: Doc | undefined;
    const sequences: [string, Doc[]][] = [];
    while (off < end) {
      const kind = msg[off++];
      if (kind === 0) {
        const size = msg.readInt32LE(off);
        body = deserialize(msg.subarray(off, off + size), DESER) as Doc;
        off += size;
      } else if (kind === 1) {
        const size = msg.readInt32LE(off);
        const secEnd = off + size;
        const [ident, afterIdent] = readCString(msg, off + 4);
        let p = afterIdent;
        const docs: Doc[] = [];
        while (p < secEnd) {
          const dsize = msg.readInt32LE(p);
          docs.push(deserialize(msg.subarray(p, p + dsize), DESER) as Doc);
          p += dsize;
        }
        sequences.push([ident, docs]);
        off = secEnd;
      } else {
        throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!body) throw new ProtocolError('OP_MSG without a body section');
    for (const [ident, docs] of sequences) body[ident] = docs;
    return { requestId, opCode, command: body, moreToCome: (flags & MORE_TO_COME) !== 0 };
  }
  if (opCode === OP_QUERY) {
    const [fullCollectionName, afterName] = readCString(msg, 20);
    const off = afterName + 8; // skip numberToSkip, numberToReturn
    const size = msg.readInt32LE(off);
    const query = deserialize(msg.subarray(off, off + size), DESER) as Doc;
    // Legacy handshakes may wrap the command as { $query: {...}, $readPreference }.
    const command =
      query.$query && typeof query.$query === 'object' ? (query.$query as Doc) : query;
    return { requestId, opCode, command, fullCollectionName, moreToCome: false };
  }
  return { requestId, opCode, command: {}, moreToCome: false };
}

export function encodeMsgReply(requestId: number, responseTo: number, body: Doc | Buffer): Buffer {
  const doc = Buffer.isBuffer(body) ? body : serialize(body);
  const header = Buffer.alloc(21);
  header.writeInt32LE(21 + doc.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(0, 16);
  header[20] = 0;
  return Buffer.concat([header, doc]);
}

export function encodeOpReply(requestId: number, responseTo: number, body: Doc): Buffer {
  const doc = serialize(body);
  const header = Buffer.alloc(36);
  header.writeInt32LE(36 + doc.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(OP_REPLY, 12);
  header.writeInt32LE(0, 16); // responseFlags
  header.writeBigInt64LE(0n, 20); // cursorID
  header.writeInt32LE(0, 28); // startingFrom
  header.writeInt32LE(1, 32); // numberReturned
  return Buffer.concat([header, doc]);
}
