import { isContentCollection } from './content-collections.server';
import { noteWrite } from './data-version.server';
import { processSingleton } from './process-state.server';
import { currentScope, type RoundTripScope } from './round-trips.server';

/**
 * The driver's command events (decision 039, moved here from data-version.server.ts): every
 * write this process sends becomes `noteWrite`, every command counts in the round-trip scope of
 * the request that sent it, and a read of a collection outside the content list marks that
 * request's scope `unversioned` (decision 043: the page cache does not keep such a render).
 */

const WRITE_COMMANDS = new Set([
  'insert',
  'update',
  'delete',
  'findAndModify',
  'create',
  'drop',
  'renameCollection',
  'dropDatabase',
]);

const READ_COMMANDS = new Set(['find', 'aggregate', 'count', 'distinct', 'getMore']);

/** The collection a write command names; undefined when it may touch any. */
function writtenCollection(name: string, command: Record<string, unknown>): string | undefined {
  if (name === 'dropDatabase' || name === 'renameCollection') return undefined;
  const value = command[name];
  return typeof value === 'string' ? value : undefined;
}

function isWrite(name: string, command: Record<string, unknown>): boolean {
  if (WRITE_COMMANDS.has(name)) return true;
  if (name !== 'aggregate') return false;
  const pipeline = command.pipeline;
  return (
    Array.isArray(pipeline) &&
    pipeline.some(
      (stage) => typeof stage === 'object' && stage && ('$out' in stage || '$merge' in stage),
    )
  );
}

/** The collections a pipeline's stages read besides its own ($lookup, $unionWith, $graphLookup). */
function pipelineCollections(pipeline: unknown, into: string[]): void {
  if (!Array.isArray(pipeline)) return;
  for (const stage of pipeline as unknown[]) {
    if (!stage || typeof stage !== 'object') continue;
    for (const [op, spec] of Object.entries(stage as Record<string, unknown>)) {
      if (op === '$unionWith' && typeof spec === 'string') into.push(spec);
      if (op !== '$lookup' && op !== '$unionWith' && op !== '$graphLookup') continue;
      if (!spec || typeof spec !== 'object') continue;
      const s = spec as Record<string, unknown>;
      const from = op === '$unionWith' ? s.coll : s.from;
      if (typeof from === 'string') into.push(from);
      pipelineCollections(s.pipeline, into);
    }
  }
}

/** The collections a read command reads (none for a command of the database as a whole). */
export function readCollections(name: string, command: Record<string, unknown>): string[] {
  if (!READ_COMMANDS.has(name)) return [];
  const own = name === 'getMore' ? command.collection : command[name];
  const out = typeof own === 'string' ? [own] : [];
  if (name === 'aggregate') pipelineCollections(command.pipeline, out);
  return out;
}

type CommandEvent = {
  requestId: number;
  commandName: string;
  command?: Record<string, unknown>;
  reply?: unknown;
};

const count = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : undefined;

/**
 * Whether a write command that succeeded changed no document, by its reply: an insert or delete
 * with `n: 0`, an update with `nModified: 0` and nothing upserted, a findAndModify whose
 * `lastErrorObject.n` is 0. A worker polling a queue with `findOneAndUpdate` (the media jobs'
 * claim, every second) makes such writes all day: counted as writes, each emptied every cache
 * of every instance. Unknown reply shapes count as writes.
 */
export function wroteNothing(commandName: string, reply: unknown): boolean {
  if (!reply || typeof reply !== 'object') return false;
  const r = reply as Record<string, unknown>;
  if (commandName === 'insert' || commandName === 'delete') return count(r.n) === 0;
  if (commandName === 'update')
    return count(r.nModified) === 0 && !(Array.isArray(r.upserted) && r.upserted.length > 0);
  if (commandName === 'findAndModify') {
    const last = r.lastErrorObject;
    return (
      !!last &&
      typeof last === 'object' &&
      count((last as Record<string, unknown>).n) === 0 &&
      (last as Record<string, unknown>).upserted === undefined
    );
  }
  return false;
}

type Pending = { collection: string | undefined; scope: RoundTripScope | undefined };

type WatchState = { watched: WeakSet<object>; pending: Map<number, Pending> };

declare module './process-state.server' {
  interface ProcessStateRegistry {
    driverCommands: WatchState;
  }
}

const state = processSingleton('driverCommands', (): WatchState => ({
  watched: new WeakSet(),
  pending: new Map(),
}));

/**
 * Listen to the driver's command events (the client must be created with
 * `monitorCommands: true`): every write becomes `noteWrite`, every command counts in the
 * round-trip scope of the code that sent it.
 */
export function watchDriverWrites(client: {
  on(event: string, listener: (event: CommandEvent) => void): unknown;
}): void {
  if (state.watched.has(client)) return;
  state.watched.add(client);
  client.on('commandStarted', (event) => {
    const scope = currentScope();
    const command = event.command ?? {};
    const write = isWrite(event.commandName, command);
    if (scope) {
      scope.commands += 1;
      if (scope.inFlight === 0) scope.waves += 1;
      scope.inFlight += 1;
      if (
        !write &&
        readCollections(event.commandName, command).some((c) => !isContentCollection(c))
      )
        scope.unversioned = true;
    }
    if (!scope && !write) return;
    state.pending.set(event.requestId, {
      collection: write ? (writtenCollection(event.commandName, command) ?? '') : undefined,
      scope,
    });
  });
  const finished = (event: CommandEvent, succeeded: boolean) => {
    const pending = state.pending.get(event.requestId);
    if (!pending) return;
    state.pending.delete(event.requestId);
    if (pending.scope) pending.scope.inFlight -= 1;
    if (pending.collection === undefined) return;
    // A write that changed nothing changes nothing shown. A failed write may still have
    // written part of its documents: note it.
    if (succeeded && wroteNothing(event.commandName, event.reply)) return;
    noteWrite(pending.collection === '' ? undefined : [pending.collection]);
  };
  client.on('commandSucceeded', (event) => finished(event, true));
  client.on('commandFailed', (event) => finished(event, false));
}
