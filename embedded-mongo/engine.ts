// In-memory storage engine: databases, collections, records and secondary indexes.
import { BSONRegExp, Long, ObjectId } from 'bson';
import { Query } from 'mingo/query';

import { collatedKeyOf, type StringOrder } from './bson-order';
import { type Collation, parseCollation } from './collation';
import { MongoError } from './errors';
import { QUERY_OPTIONS } from './mingo-context';
import { compareKeys, type Entry, SortedKeys } from './sorted-keys';
import {
  type Doc,
  isEmptyArrayMarker,
  isPlainObject,
  keyOf,
  pathValues,
  type TypeNote,
} from './values';

export interface Rec {
  doc: Doc;
  notes?: TypeNote[];
  /** Insertion sequence in its collection (kept across updates): ties in index order. */
  seq?: number;
}

export interface IndexSpec {
  v: number;
  key: Doc;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
  [k: string]: unknown;
}

/** A journaled mutation. Documents are stored with their BSON number types restored. */
export type Op =
  | { k: 'p'; db: string; c: string; d: Doc }
  | { k: 'd'; db: string; c: string; id: unknown }
  | { k: 'cc'; db: string; c: string; o?: Doc }
  | { k: 'dc'; db: string; c: string }
  | { k: 'ci'; db: string; c: string; spec: IndexSpec }
  | { k: 'di'; db: string; c: string; name: string }
  | { k: 'dd'; db: string };

/** The names of the collections that `ops` changed, each once, in order of first change. */
export function changedCollections(ops: readonly Op[]): string[] {
  const names = new Set<string>();
  for (const op of ops) if (op.k !== 'dd') names.add(op.c);
  return [...names];
}

export function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof ObjectId) return `ObjectId('${v.toHexString()}')`;
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v === undefined) return 'null';
  if (v === null) return 'null';
  if (Array.isArray(v)) return '[ ' + v.map(formatValue).join(', ') + ' ]';
  if (isPlainObject(v)) {
    const parts = Object.entries(v).map(([k, x]) => `${k}: ${formatValue(x)}`);
    return parts.length ? '{ ' + parts.join(', ') + ' }' : '{}';
  }
  return String(v);
}

export function isScalarForIndex(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return v !== undefined;
  if (Array.isArray(v) || isPlainObject(v)) return false;
  if (v instanceof RegExp || v instanceof BSONRegExp) return false;
  return true;
}

export class Index {
  readonly fields: [string, number][];
  readonly name: string;
  readonly unique: boolean;
  readonly sparse: boolean;
  readonly partial?: Query;
  /** The index's collation (null: simple); its keys compare strings by it. */
  readonly collation: StringOrder | null;
  /**
   * Key -> the id (or the ids) of the records holding it: for unique and single-field indexes
   * (uniqueness, equality lookups). A lone id is kept as is, not in a Set of its own.
   */
  private readonly map = new Map<string, string | Set<string>>();
  /** Whether the key map is kept: other compound indexes serve reads by their sorted entries. */
  private readonly keepsMap: boolean;
  multikey = false;
  /** Whether every key is a direction (1 or -1), not a special type ('hashed', ...). */
  readonly plainKeys: boolean;
  /** Sorted entries (sorted-keys.ts), built on first use by the planner, then maintained. */
  private sorted: SortedKeys | null = null;

  constructor(public readonly spec: IndexSpec) {
    this.name = spec.name;
    this.fields = Object.entries(spec.key).map(([f, d]) => [f, typeof d === 'number' ? d : 1]);
    this.plainKeys = Object.values(spec.key).every((d) => typeof d === 'number');
    this.unique = !!spec.unique || this.name === '_id_';
    this.sparse = !!spec.sparse;
    this.keepsMap = this.unique || this.fields.length === 1 || !this.plainKeys;
    if (spec.partialFilterExpression)
      this.partial = new Query(spec.partialFilterExpression, QUERY_OPTIONS);
    this.collation = spec.collation ? parseCollation(spec.collation) : null;
  }

  /** Whether this index can serve queries and sorts under the simple collation. */
  get binary(): boolean {
    return this.collation === null;
  }

  get isSingleField(): boolean {
    return this.fields.length === 1;
  }

  /**
   * Whether the planner may use this index: not when hidden (collMod `hidden: true`); a hidden
   * index is still maintained, enforces uniqueness and expires documents (TTL), as in MongoDB.
   */
  get plannable(): boolean {
    return this.spec.hidden !== true;
  }

  /** Index keys for a document, or null when the document is not in the index. */
  keysFor(doc: Doc): string[] | null {
    if (this.partial && !this.partial.test(doc)) return null;
    const perField: unknown[][] = [];
    let anyPresent = false;
    for (const [f] of this.fields) {
      const vals = pathValues(doc, f).map((v) => {
        if (!isEmptyArrayMarker(v)) return v;
        this.multikey = true;
        return undefined;
      });
      if (vals.some((v) => v !== undefined)) anyPresent = true;
      if (vals.length > 1) this.multikey = true;
      perField.push(vals.length ? vals : [undefined]);
    }
    if (this.sparse && !anyPresent) return null;
    let keys: string[] = [''];
    for (let i = 0; i < perField.length; i++) {
      const next: string[] = [];
      const sep = i === 0 ? '' : '\u0000';
      const c = this.collation;
      for (const prefix of keys)
        for (const v of perField[i]) next.push(prefix + sep + (c ? collatedKeyOf(v, c) : keyOf(v)));
      keys = next;
    }
    return keys.length > 1 ? [...new Set(keys)] : keys;
  }

  add(id: string, rec: Rec): void {
    const doc = rec.doc;
    if (this.keepsMap) {
      const keys = this.keysFor(doc);
      if (!keys) return;
      for (const k of keys) {
        const cur = this.map.get(k);
        if (cur === undefined) this.map.set(k, id);
        else if (typeof cur !== 'string') cur.add(id);
        else if (cur !== id) this.map.set(k, new Set([cur, id]));
      }
    } else if (this.partial && !this.partial.test(doc)) return;
    if (!this.sorted && this.keepsMap) return;
    // entryOf notes a multikey document (and the sorted entries are dropped for good).
    const e = this.multikey ? null : this.entryOf(rec, id);
    if (!this.sorted) return;
    if (e) this.sorted.insert(e);
    else this.sorted = null;
  }

  remove(id: string, rec: Rec): void {
    const doc = rec.doc;
    if (this.keepsMap) {
      const keys = this.keysFor(doc);
      if (!keys) return;
      for (const k of keys) {
        const cur = this.map.get(k);
        if (cur === id) this.map.delete(k);
        else if (cur !== undefined && typeof cur !== 'string') {
          cur.delete(id);
          if (cur.size === 1) this.map.set(k, cur.values().next().value as string);
        }
      }
    }
    if (this.sorted) {
      const e = this.entryOf(rec, id);
      if (!e || !this.sorted.remove(e)) this.sorted = null;
    }
  }

  /** The ids of the records holding a key (unique and single-field indexes). */
  idsOf(key: string): Iterable<string> {
    const cur = this.map.get(key);
    if (cur === undefined) return [];
    return typeof cur === 'string' ? [cur] : cur;
  }

  /**
   * Whether the planner may walk this index in key order: a plannable, simple-collation,
   * non-sparse, non-partial, non-multikey index of plain directions.
   */
  get orderable(): boolean {
    return (
      this.plannable &&
      this.binary &&
      this.plainKeys &&
      !this.sparse &&
      !this.partial &&
      !this.multikey
    );
  }

  /**
   * The key fields' directions as stored: the entries are kept with the first field ascending
   * (an index `{ createdAt: -1, id: -1 }` is stored as `{ createdAt: 1, id: 1 }` and walked
   * backward), so that entries for ever newer dates go at the end.
   */
  get storedDirs(): number[] {
    const first = this.fields[0][1] < 0 ? -1 : 1;
    return this.fields.map(([, d]) => (d < 0 ? -1 : 1) * first);
  }

  /**
   * The entry of a record: [value of each field..., seq, id, record]; null (and the index noted
   * multikey) when a field holds an array or its path goes through one.
   */
  private entryOf(rec: Rec, id: string): Entry | null {
    const doc = rec.doc;
    const n = this.fields.length;
    const e: Entry = new Array(n + 3);
    for (let i = 0; i < n; i++) {
      const f = this.fields[i][0];
      let v: unknown;
      if (!f.includes('.')) v = doc[f];
      else {
        let cur: unknown = doc;
        for (const part of f.split('.')) {
          if (Array.isArray(cur)) break;
          cur = isPlainObject(cur) ? cur[part] : undefined;
        }
        v = cur;
      }
      if (Array.isArray(v)) {
        this.multikey = true;
        return null;
      }
      e[i] = v;
    }
    e[n] = rec.seq ?? 0;
    e[n + 1] = id;
    e[n + 2] = rec;
    return e;
  }

  /**
   * Builds the sorted entries of a compound index now (they are what it serves reads with, the
   * lists' sorts: a first page after a start should not pay for them); single-field ones wait
   * for their first use.
   */
  warm(records: Map<string, Rec>): void {
    if (this.fields.length > 1) this.sortedKeys(records);
  }

  /** Whether the sorted entries are built. */
  get hasSortedKeys(): boolean {
    return this.sorted !== null;
  }

  /** The sorted entries (built on first use), or null if this index cannot keep them. */
  sortedKeys(records: Map<string, Rec>): SortedKeys | null {
    if (!this.orderable) return null;
    if (this.sorted) return this.sorted;
    const entries: Entry[] = [];
    for (const [id, rec] of records) {
      const e = this.entryOf(rec, id);
      if (!e) return null;
      entries.push(e);
    }
    const dirs = this.storedDirs;
    const n = dirs.length;
    // Ties (equal keys) in insertion order, reversed with the first field as MongoDB's
    // RecordId order is for a descending index walked forward.
    const seqDir = this.fields[0][1] < 0 ? -1 : 1;
    const cmp = (a: Entry, b: Entry): number => {
      for (let i = 0; i < n; i++) {
        const c = compareKeys(a[i], b[i]);
        if (c) return c * dirs[i];
      }
      return ((a[n] as number) - (b[n] as number)) * seqDir;
    };
    entries.sort(cmp);
    this.sorted = new SortedKeys(entries, cmp);
    return this.sorted;
  }

  /** Returns the conflicting key if inserting `doc` (as record `selfId`) would violate uniqueness. */
  conflict(doc: Doc, selfId: string): boolean {
    if (!this.unique) return false;
    const keys = this.keysFor(doc);
    if (!keys) return false;
    for (const k of keys) for (const other of this.idsOf(k)) if (other !== selfId) return true;
    return false;
  }

  clear(): void {
    this.map.clear();
    this.sorted = null;
    this.multikey = false;
  }
}

export class Collection {
  readonly records = new Map<string, Rec>();
  private nextSeq = 0;
  readonly indexes: Index[];
  /** The collection's default collation (null: simple), from `options.collation`. */
  readonly defaultCollation: Collation | null;

  /** `options`: what `create` stored and listCollections reports (`collation`). */
  constructor(
    public readonly db: string,
    public readonly name: string,
    public readonly options: Doc = {},
  ) {
    this.defaultCollation = options.collation ? parseCollation(options.collation) : null;
    // The _id index has the collection's default collation, as in MongoDB.
    const idSpec: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };
    if (this.defaultCollation) idSpec.collation = this.defaultCollation.spec;
    this.indexes = [new Index(idSpec)];
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  dupError(index: Index, doc: Doc): MongoError {
    const keyValue: Doc = {};
    const keyPattern: Doc = {};
    for (const [f, d] of index.fields) {
      const vals = pathValues(doc, f);
      keyValue[f] = vals[0] === undefined || isEmptyArrayMarker(vals[0]) ? null : vals[0];
      keyPattern[f] = d;
    }
    const extra: Doc = { keyPattern, keyValue };
    // mongod's DuplicateKeyErrorInfo names the index's collation when it has one.
    if (index.spec.collation) extra.collation = index.spec.collation;
    return new MongoError(
      11000,
      'DuplicateKey',
      `E11000 duplicate key error collection: ${this.ns} index: ${index.name} dup key: ${formatValue(keyValue)}`,
      extra,
    );
  }

  checkUnique(doc: Doc, selfId: string): void {
    for (const ix of this.indexes)
      if (ix.unique && ix.conflict(doc, selfId)) throw this.dupError(ix, doc);
  }

  insert(rec: Rec): void {
    const id = keyOf(rec.doc._id);
    if (this.records.has(id)) throw this.dupError(this.indexes[0], rec.doc);
    this.checkUnique(rec.doc, id);
    rec.seq = ++this.nextSeq;
    this.records.set(id, rec);
    for (const ix of this.indexes) ix.add(id, rec);
  }

  replace(id: string, old: Rec, rec: Rec): void {
    this.checkUnique(rec.doc, id);
    for (const ix of this.indexes) ix.remove(id, old);
    rec.seq = old.seq ?? ++this.nextSeq;
    this.records.set(id, rec);
    for (const ix of this.indexes) ix.add(id, rec);
  }

  remove(id: string): Rec | undefined {
    const rec = this.records.get(id);
    if (!rec) return undefined;
    for (const ix of this.indexes) ix.remove(id, rec);
    this.records.delete(id);
    return rec;
  }

  /** Replay path: set a document without uniqueness checks (indexes rebuilt afterwards). */
  rawPut(rec: Rec): void {
    const id = keyOf(rec.doc._id);
    rec.seq = this.records.get(id)?.seq ?? ++this.nextSeq;
    this.records.set(id, rec);
  }

  rebuildIndexes(): void {
    for (const ix of this.indexes) {
      ix.clear();
      for (const [id, rec] of this.records) ix.add(id, rec);
      ix.warm(this.records);
    }
  }

  addIndex(spec: IndexSpec): void {
    const ix = new Index(spec);
    for (const [id, rec] of this.records) {
      if (ix.conflict(rec.doc, id)) throw this.dupError(ix, rec.doc);
      ix.add(id, rec);
    }
    ix.warm(this.records);
    this.indexes.push(ix);
  }

  /**
   * Record ids that can match a filter's top-level equality/$in on `_id` or an index; null if
   * none applies. Under a collation (its full spec) only indexes with that same collation serve.
   */
  equalityIds(filter: Doc, collation?: Doc): string[] | null {
    const collationKey = collation ? keyOf(collation) : null;
    let best: Set<string> | null = null;
    for (const field of Object.keys(filter)) {
      if (field.startsWith('$')) continue;
      const cond = filter[field];
      let values: unknown[] | null = null;
      if (isScalarForIndex(cond)) values = [cond];
      else if (isPlainObject(cond)) {
        const ks = Object.keys(cond);
        if (ks.length === 1 && ks[0] === '$eq' && isScalarForIndex(cond.$eq)) values = [cond.$eq];
        else if (
          ks.length === 1 &&
          ks[0] === '$in' &&
          Array.isArray(cond.$in) &&
          cond.$in.every((v) => isScalarForIndex(v) || v === null)
        )
          values = cond.$in;
      }
      if (!values) continue;
      if (field === '_id' && !collationKey) {
        const ids: string[] = [];
        for (const v of values) {
          const k = keyOf(v);
          if (this.records.has(k)) ids.push(k);
        }
        return [...new Set(ids)];
      }
      const ix = this.indexes.find(
        (i) =>
          i.plannable &&
          i.isSingleField &&
          i.fields[0][0] === field &&
          !i.sparse &&
          !i.partial &&
          (collationKey ? keyOf(i.spec.collation ?? null) === collationKey : i.binary),
      );
      if (!ix) continue;
      const set = new Set<string>();
      const c = ix.collation;
      for (const v of values) {
        for (const id of ix.idsOf(c ? collatedKeyOf(v, c) : keyOf(v))) set.add(id);
      }
      if (!best || set.size < best.size) best = set;
    }
    return best ? [...best] : null;
  }
}

export class Store {
  readonly dbs = new Map<string, Map<string, Collection>>();

  getColl(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** Returns the collection, creating it (and logging the creation) if needed. */
  ensureColl(db: string, name: string, log: Op[], options?: Doc): Collection {
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    let c = colls.get(name);
    if (!c) {
      validateCollName(name);
      const hasOptions = !!options && Object.keys(options).length > 0;
      c = new Collection(db, name, hasOptions ? options : {});
      colls.set(name, c);
      log.push(hasOptions ? { k: 'cc', db, c: name, o: options } : { k: 'cc', db, c: name });
    }
    return c;
  }

  dropColl(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    if (!colls?.has(name)) return false;
    colls.delete(name);
    if (colls.size === 0) this.dbs.delete(db);
    return true;
  }
}

export function validateCollName(name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.includes('$') || name.includes('\0')) {
    throw new MongoError(73, 'InvalidNamespace', `Invalid collection name: ${String(name)}`);
  }
}

export function newObjectId(): ObjectId {
  return new ObjectId();
}

export function toLong(n: bigint | number): Long {
  return typeof n === 'bigint' ? Long.fromBigInt(n) : Long.fromNumber(n);
}
