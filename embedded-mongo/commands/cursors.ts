// Cursors: first batches, getMore, killCursors, and the open cursors of one store.
import { Binary, Long } from 'bson';

import { MongoError } from '../errors';
import { type Doc, isPlainObject } from '../values';
import { type CmdContext, collName, toNumber } from './context';

const BATCH_BYTES = 8 * 1024 * 1024;

/**
 * Where a cursor's documents come from: the next one, or undefined after the last. A find's
 * source produces them as the cursor is read (lazy-scan.ts); other results are arrays.
 */
export type DocSource = () => Doc | undefined;

/** The rest of a result, read by getMore. */
interface CursorState {
  ns: string;
  next: DocSource;
  /** The next document, read ahead (to know whether there is one). */
  ahead: Doc | undefined;
  touched: number;
}

function arraySource(docs: readonly Doc[]): DocSource {
  let pos = 0;
  return () => (pos < docs.length ? docs[pos++] : undefined);
}

/** Idle cursors are closed after 10 minutes, as in MongoDB. */
const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;
/** Idle cursors are looked for at most once a minute, when a cursor is opened. */
const SWEEP_INTERVAL_MS = 60_000;

/** The open cursors of one running store (each store has its own: see `newState`). */
export class CursorTable {
  private readonly open = new Map<string, CursorState>();
  private nextId = BigInt(Date.now()) * 1000n;
  private lastSweep = Date.now();

  /** Keeps the rest of a result (`ahead`, then what `next` produces) under a new cursor id. */
  add(ns: string, next: DocSource, ahead: Doc): bigint {
    this.sweep();
    const id = this.nextId++;
    this.open.set(id.toString(), { ns, next, ahead, touched: Date.now() });
    return id;
  }

  get(id: bigint): CursorState | undefined {
    return this.open.get(id.toString());
  }

  delete(id: bigint): boolean {
    return this.open.delete(id.toString());
  }

  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [id, c] of this.open) if (now - c.touched > CURSOR_TIMEOUT_MS) this.open.delete(id);
  }
}

export function makeCursor(
  ctx: CmdContext,
  ns: string,
  docs: Doc[] | DocSource,
  batchSize: number | undefined,
  single = false,
): Doc {
  const next = Array.isArray(docs) ? arraySource(docs) : docs;
  const reading = { next, ahead: next() };
  const first = takeBatch(reading, batchSize ?? 101);
  let id = Long.ZERO;
  if (reading.ahead !== undefined && !single) {
    id = Long.fromBigInt(ctx.state.cursors.add(ns, next, reading.ahead));
  }
  return { cursor: { firstBatch: first, id, ns }, ok: 1 };
}

/**
 * Up to `batchSize` documents (0: no count bound) within the reply's size bound, from
 * `ahead` on; `ahead` is left holding the next document (undefined: none left).
 */
function takeBatch(reading: { next: DocSource; ahead: Doc | undefined }, batchSize: number): Doc[] {
  const out: Doc[] = [];
  let bytes = 0;
  const max = batchSize > 0 ? batchSize : Infinity;
  while (reading.ahead !== undefined && out.length < max) {
    // Rough size bound to keep replies under the message size.
    bytes += estimateSize(reading.ahead);
    if (out.length > 0 && bytes > BATCH_BYTES) break;
    out.push(reading.ahead);
    reading.ahead = reading.next();
  }
  return out;
}

export function estimateSize(d: unknown): number {
  if (d === null || d === undefined) return 1;
  if (typeof d === 'string') return d.length + 8;
  if (typeof d !== 'object') return 12;
  if (Array.isArray(d)) return d.reduce<number>((s, x) => s + estimateSize(x) + 4, 8);
  if (isPlainObject(d)) {
    let s = 8;
    for (const k of Object.keys(d)) s += k.length + 2 + estimateSize(d[k]);
    return s;
  }
  if (d instanceof Uint8Array) return d.length + 8;
  // BSON Binary (GridFS chunks): its bytes, not a fixed guess, or a batch of 255 KiB chunks
  // would pass the bound and make a reply too large to encode.
  if (d instanceof Binary) return d.length() + 13;
  return 24;
}

export function batchSizeOf(cmd: Doc): number | undefined {
  const c = cmd.cursor;
  if (isPlainObject(c) && c.batchSize !== undefined) {
    const n = toNumber(c.batchSize);
    return n === 0 ? 0 : n;
  }
  return undefined;
}

export function getMore(cmd: Doc, ctx: CmdContext): Doc {
  const id = cmd.getMore instanceof Long ? cmd.getMore.toBigInt() : BigInt(toNumber(cmd.getMore));
  const name = collName(cmd, 'collection');
  const cur = ctx.state.cursors.get(id);
  if (!cur) throw new MongoError(43, 'CursorNotFound', `cursor id ${id} not found`);
  if (cur.ns !== `${ctx.db}.${name}`) {
    throw new MongoError(
      13,
      'Unauthorized',
      `cursor ${id} belongs to ${cur.ns}, not ${ctx.db}.${name}`,
    );
  }
  const bs = cmd.batchSize === undefined ? 0 : toNumber(cmd.batchSize);
  let batch: Doc[];
  try {
    batch = takeBatch(cur, bs);
  } catch (error) {
    // The read cannot go on (its collection or index was dropped): the cursor is gone.
    ctx.state.cursors.delete(id);
    throw error;
  }
  cur.touched = Date.now();
  let outId = Long.fromBigInt(id);
  if (cur.ahead === undefined) {
    ctx.state.cursors.delete(id);
    outId = Long.ZERO;
  }
  return { cursor: { nextBatch: batch, id: outId, ns: cur.ns }, ok: 1 };
}

export function killCursors(cmd: Doc, ctx: CmdContext): Doc {
  const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const raw of ids) {
    const id = raw instanceof Long ? raw : Long.fromNumber(Number(raw));
    if (ctx.state.cursors.delete(id.toBigInt())) killed.push(id);
    else notFound.push(id);
  }
  return {
    cursorsKilled: killed,
    cursorsNotFound: notFound,
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
}
