// `serverStatus`: the part of mongod's answer a benchmark reads, in mongod's shape, so that the
// same script measures the embedded store and a real MongoDB: `opcounters` (insert counts
// documents, update and delete statements, query `find` commands, getmore `getMore`, command
// every other command), `metrics.commands.<name>.{total,failed}` (every command by its name as
// sent) and `mem.resident` (MB, of the process the store runs in: the app's, when embedded).
import { Long } from 'bson';

import type { Doc } from '../values';
import type { CmdContext } from './context';

type Counter = { total: number; failed: number };

export class CommandStats {
  readonly opcounters = { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 };
  private readonly commands = new Map<string, Counter>();
  private readonly started = Date.now();

  /** One command as it arrived (its name as sent), before it runs. */
  record(name: string, cmd: Doc): void {
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
  }

  /** The command `name` answered with an error. */
  failed(name: string): void {
    const counter = this.commands.get(name);
    if (counter) counter.failed += 1;
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
      mem: {
        bits: 64,
        resident: Math.round(memory.rss / 1024 / 1024),
        supported: true,
      },
      metrics: { commands },
      ok: 1,
    };
  }
}

export function serverStatus(_cmd: Doc, ctx: CmdContext): Doc {
  return ctx.state.stats.status();
}
