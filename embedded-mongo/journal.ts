// Durability: an append-only journal of checksummed BSON records plus snapshot compaction.
//
// Files in dataDir:
//   snapshot.bin        records: header {gen}, then per collection {coll, indexes} and {docs}
//   journal-<gen>.bin   records: {ops: [...]} one per acknowledged command
// A snapshot with header gen G contains every journal with generation < G. Startup loads the
// snapshot, then replays journal-G, journal-G+1, ... in order; a torn or corrupt tail is
// truncated. Record framing: uint32 LE payload length, uint32 LE crc32(payload), payload.
import {
  closeSync,
  constants as fsConstants,
  existsSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

import { deserialize, serialize } from 'bson';

import { type Collection, Index, type IndexSpec, type Op, type Store } from './engine';
import { type Doc, keyOf, normalize, type TypeNote, withTypes } from './values';

const SNAPSHOT = 'snapshot.bin';
/** Synchronous-data writes: one syscall per group commit instead of write + fdatasync. */
const O_DSYNC = fsConstants.O_DSYNC ?? 0;
const APPEND_FLAGS = fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_CREAT;

export const DEFAULT_COMPACT_BYTES = 16 * 1024 * 1024;

export function frame(payload: Doc): Buffer {
  const body = serialize(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(crc32(body) >>> 0, 4);
  return Buffer.concat([head, body]);
}

/** Reads framed records; returns them and the offset just past the last valid one. */
export function readRecords(buf: Buffer): { records: Doc[]; validEnd: number } {
  const records: Doc[] = [];
  let off = 0;
  while (off + 8 <= buf.length) {
    const len = buf.readUInt32LE(off);
    const sum = buf.readUInt32LE(off + 4);
    if (len < 5 || off + 8 + len > buf.length) break;
    const body = buf.subarray(off + 8, off + 8 + len);
    if (crc32(body) >>> 0 !== sum) break;
    try {
      records.push(deserialize(body, { promoteValues: false }) as Doc);
    } catch {
      break;
    }
    off += 8 + len;
  }
  return { records, validEnd: off };
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms do not allow fsync on directories; the rename is still atomic.
  }
}

function journalName(gen: number): string {
  return `journal-${String(gen).padStart(8, '0')}.bin`;
}

function listJournals(dir: string): number[] {
  return readdirSync(dir)
    .map((f) => /^journal-(\d+)\.bin$/.exec(f))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

function toRec(raw: unknown): { doc: Doc; notes?: TypeNote[] } {
  const notes: TypeNote[] = [];
  const doc = normalize(raw, notes) as Doc;
  return { doc, notes: notes.length ? notes : undefined };
}

export function applyOp(store: Store, op: Doc): void {
  const db = op.db as string;
  const c = op.c as string;
  const ignore: Op[] = [];
  switch (op.k) {
    case 'p':
      store.ensureColl(db, c, ignore).rawPut(toRec(op.d));
      break;
    case 'd': {
      const coll = store.getColl(db, c);
      coll?.records.delete(keyOf(normalize(op.id)));
      break;
    }
    case 'cc':
      store.ensureColl(db, c, ignore, op.o ? (normalize(op.o) as Doc) : undefined);
      break;
    case 'dc':
      store.dropColl(db, c);
      break;
    case 'ci': {
      const coll = store.ensureColl(db, c, ignore);
      const spec = normalize(op.spec) as IndexSpec;
      if (!coll.indexes.some((i) => i.name === spec.name)) coll.indexes.push(new Index(spec));
      break;
    }
    case 'di': {
      const coll = store.getColl(db, c);
      if (coll) {
        const i = coll.indexes.findIndex((x) => x.name === op.name);
        if (i > 0) coll.indexes.splice(i, 1);
      }
      break;
    }
    case 'dd':
      store.dbs.delete(db);
      break;
  }
}

export class Journal {
  private fd: number | null = null;
  private gen = 0;
  private size = 0;
  private pending: Buffer[] = [];
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  private snapshotSize = 0;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly store: Store,
    /** Compact once the journal exceeds this size (and twice the snapshot size). */
    private readonly compactBytes = DEFAULT_COMPACT_BYTES,
  ) {}

  /** Loads snapshot + journals into the store and opens a fresh journal for appends. */
  async load(): Promise<{ torn: boolean }> {
    let torn = false;
    let firstGen = 1;
    const snapPath = join(this.dir, SNAPSHOT);
    if (existsSync(snapPath)) {
      const buf = readFileSync(snapPath);
      this.snapshotSize = buf.length;
      const { records } = readRecords(buf);
      const head = records[0];
      const last = records[records.length - 1];
      if (!head || head.t !== 'head' || !last || last.t !== 'end') {
        throw new Error(`embedded-mongo: snapshot ${snapPath} is incomplete or corrupt`);
      }
      firstGen = Number(normalize(head.gen));
      let coll: Collection | null = null;
      for (const r of records.slice(1, -1)) {
        if (r.t === 'coll') {
          const options = r.options ? (normalize(r.options) as Doc) : undefined;
          coll = this.store.ensureColl(r.db as string, r.c as string, [], options);
          for (const spec of normalize(r.indexes) as IndexSpec[]) {
            if (spec.name === '_id_') continue;
            applyOp(this.store, { k: 'ci', db: r.db, c: r.c, spec });
          }
        } else if (r.t === 'docs' && coll) {
          for (const d of r.docs as unknown[]) coll.rawPut(toRec(d));
        }
      }
    }
    const gens = listJournals(this.dir);
    for (const g of gens) {
      const path = join(this.dir, journalName(g));
      if (g < firstGen) {
        unlinkSync(path);
        continue;
      }
      const buf = readFileSync(path);
      const { records, validEnd } = readRecords(buf);
      for (const r of records) for (const op of r.ops as Doc[]) applyOp(this.store, op);
      if (validEnd < buf.length) {
        torn = true;
        const fd = openSync(path, 'r+');
        ftruncateSync(fd, validEnd);
        fsyncSync(fd);
        closeSync(fd);
      }
    }
    for (const colls of this.store.dbs.values()) for (const c of colls.values()) c.rebuildIndexes();
    this.gen = Math.max(firstGen, gens.length ? gens[gens.length - 1] : 0);
    this.openJournal(this.gen);
    return { torn };
  }

  private openJournal(gen: number): void {
    const path = join(this.dir, journalName(gen));
    const fresh = !existsSync(path);
    this.fd = openSync(path, O_DSYNC ? APPEND_FLAGS | O_DSYNC : 'a');
    this.size = fstatSync(this.fd).size;
    this.gen = gen;
    if (fresh) fsyncDir(this.dir);
  }

  /**
   * Appends one command's ops; resolves once they are on disk. Commands arriving in the same
   * event-loop turn share one write + fdatasync (group commit).
   */
  commit(ops: Op[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('embedded-mongo: store is stopped'));
    this.pending.push(frame({ ops }));
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.flushing) {
      this.flushing = new Promise<void>((resolve) =>
        setImmediate(() => {
          this.flushNow();
          this.flushing = null;
          resolve();
          this.maybeCompact();
        }),
      );
    }
    return p;
  }

  private flushNow(): void {
    if (!this.pending.length) return;
    const bufs = this.pending;
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    try {
      const data = bufs.length === 1 ? bufs[0] : Buffer.concat(bufs);
      writeSync(this.fd!, data);
      // With O_DSYNC the write returns once data (and the size needed to read it) is on disk.
      if (!O_DSYNC) fdatasyncSync(this.fd!);
      this.size += data.length;
      for (const w of waiters) w.resolve();
    } catch (e) {
      for (const w of waiters) w.reject(e as Error);
    }
  }

  private maybeCompact(): void {
    if (
      this.size > Math.max(this.compactBytes, this.snapshotSize * 2) &&
      !this.compacting &&
      !this.closed
    ) {
      this.compacting = this.compact()
        .catch((e) => console.error('embedded-mongo: compaction failed:', e))
        .finally(() => (this.compacting = null));
    }
  }

  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /**
   * Writes a snapshot of the current state and drops the journals it covers. The state is
   * captured synchronously, and new commits go to a new journal generation meanwhile.
   */
  async compact(): Promise<void> {
    await this.flush();
    const records: Buffer[] = [];
    const nextGen = this.gen + 1;
    records.push(frame({ t: 'head', gen: nextGen }));
    for (const [db, colls] of this.store.dbs) {
      for (const [name, coll] of colls) {
        const indexes = coll.indexes.map((i) => i.spec);
        const options = Object.keys(coll.options).length ? { options: coll.options } : {};
        records.push(frame({ t: 'coll', db, c: name, indexes, ...options }));
        let batch: Doc[] = [];
        let bytes = 0;
        for (const rec of coll.records.values()) {
          const d = withTypes(rec.doc, rec.notes);
          batch.push(d);
          bytes += 256;
          if (batch.length >= 1000 || bytes > 4 * 1024 * 1024) {
            records.push(frame({ t: 'docs', docs: batch }));
            batch = [];
            bytes = 0;
          }
        }
        if (batch.length) records.push(frame({ t: 'docs', docs: batch }));
      }
    }
    records.push(frame({ t: 'end' }));
    // Switch appends to a new generation before any await so no write lands in the old one.
    const oldGen = this.gen;
    this.flushNow();
    closeSync(this.fd!);
    this.openJournal(nextGen);
    const data = Buffer.concat(records);
    const tmp = join(this.dir, SNAPSHOT + '.tmp');
    const fh = await open(tmp, 'w');
    try {
      await fh.write(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    renameSync(tmp, join(this.dir, SNAPSHOT));
    fsyncDir(this.dir);
    this.snapshotSize = data.length;
    for (const g of listJournals(this.dir)) {
      if (g <= oldGen) unlinkSync(join(this.dir, journalName(g)));
    }
  }

  async close(compact = true): Promise<void> {
    if (this.closed) return;
    await this.flush();
    if (this.compacting) await this.compacting;
    if (compact && this.size > 0) await this.compact();
    this.closed = true;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
