// `serverStatus` and `top`: the part of mongod's answers a benchmark reads, in mongod's shape, so
// that the same script measures the embedded store and a real MongoDB. serverStatus:
// `opcounters` (insert counts documents, update and delete statements, query `find` commands,
// getmore `getMore`, command every other command), `metrics.commands.<name>.{total,failed}`
// (every command by its name as sent), `metrics.queryExecutor.scannedObjects` (documents a find
// examined) and `mem.resident` (MB, of the process the store runs in:
// the app's, when embedded). top: per namespace, the commands that named a collection and the
// time they took (µs), as `total`, `queries`, `getmore`, `insert`, `update`, `remove`, `commands`.
import { Long } from 'bson';

import { MongoError } from '../errors';
import type { Doc } from '../values';
import type { CmdContext } from './context';

type Counter = { total: number; failed: number };
type Timed = { time: number; count: number };

const TOP_KINDS = [
  'total',
  'queries',
  'getmore',
  'insert',
  'update',
  'remove',
  'commands',
] as const;
type TopKind = (typeof TOP_KINDS)[number];

function topKind(lname: string): TopKind {
  if (lname === 'find') return 'queries';
  if (lname === 'getmore') return 'getmore';
  if (lname === 'insert') return 'insert';
  if (lname === 'update') return 'update';
  if (lname === 'delete') return 'remove';
  return 'commands';
}

export class CommandStats {
  readonly opcounters = { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 };
  /**
   * mongod's `metrics.queryExecutor.scannedObjects`: the documents find commands examined (their
   * first batches and getMores), so a bench or a test sees what a read cost as it is read.
   */
  readonly queryExecutor = { scannedObjects: 0 };
  private readonly commands = new Map<string, Counter>();
  private readonly namespaces = new Map<string, Record<TopKind, Timed>>();
  private readonly started = Date.now();

  /** One command as it arrived (its name as sent), before it runs; call the answer when done. */
  record(name: string, cmd: Doc, db: string): (ok: boolean) => void {
    const lname = name.toLowerCase();
    const items = (key: string) => {
      const list = cmd[key];
      return Array.isArray(list) ? list.length : 0;
    };
    if (lname === 'insert') this.opcounters.insert += items('documents');
    else if (lname === 'update') this.opcounters.update += items('updates');
    else if (lname === 'delete') this.opcounters.delete += items('deletes');
    else if (lname === 'find') this.opcounters.query += 1;
    else if (lname === 'getmore') this.opcounters.getmore += 1;
    else this.opcounters.command += 1;
    const counter = this.commands.get(name) ?? { total: 0, failed: 0 };
    counter.total += 1;
    this.commands.set(name, counter);
    const collection = lname === 'getmore' ? cmd.collection : cmd[name];
    const started = process.hrtime.bigint();
    return (ok) => {
      if (!ok) counter.failed += 1;
      if (typeof collection !== 'string' || !collection) return;
      const ns = `${db}.${collection}`;
      let entry = this.namespaces.get(ns);
      if (!entry) {
        entry = Object.fromEntries(TOP_KINDS.map((k) => [k, { time: 0, count: 0 }])) as Record<
          TopKind,
          Timed
        >;
        this.namespaces.set(ns, entry);
      }
      const micros = Number((process.hrtime.bigint() - started) / 1000n);
      for (const kind of ['total', topKind(lname)] as const) {
        entry[kind].time += micros;
        entry[kind].count += 1;
      }
    };
  }

  status(): Doc {
    const memory = process.memoryUsage();
    const commands: Doc = {};
    for (const [name, c] of this.commands)
      commands[name] = { total: Long.fromNumber(c.total), failed: Long.fromNumber(c.failed) };
    const longs = (o: Record<string, number>): Doc =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Long.fromNumber(v)]));
    return {
      host: '127.0.0.1',
      version: '7.0.0',
      process: 'embedded-mongo',
      pid: Long.fromNumber(process.pid),
      uptime: (Date.now() - this.started) / 1000,
      localTime: new Date(),
      opcounters: longs(this.opcounters),
      mem: { bits: 64, resident: Math.round(memory.rss / 1024 / 1024), supported: true },
      metrics: { commands, queryExecutor: longs(this.queryExecutor) },
      ok: 1,
    };
  }

  top(): Doc {
    const totals: Doc = { note: 'all times in microseconds' };
    for (const [ns, entry] of this.namespaces) totals[ns] = structuredClone(entry);
    return { totals, ok: 1 };
  }
}

export function serverStatus(_cmd: Doc, ctx: CmdContext): Doc {
  return ctx.state.stats.status();
}

/** `top` (run against `admin`, as on mongod). */
export function top(_cmd: Doc, ctx: CmdContext): Doc {
  if (ctx.db !== 'admin')
    throw new MongoError(13, 'Unauthorized', 'top may only be run against the admin database.');
  return ctx.state.stats.top();
}
