// The entities of a test (the unified format's createEntities): clients, with the command
// events they observe, and the databases, collections and sessions made from them.
import {
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Db,
  MongoClient,
} from 'mongodb';

import { type Doc, isDoc, Mismatch } from './match';

/** The driver keeps some command fields (sort, hint) as Maps; the tests expect documents. */
function plainMaps(v: unknown): unknown {
  if (v instanceof Map) {
    const out: Doc = {};
    for (const [k, x] of v) out[String(k)] = plainMaps(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(plainMaps);
  if (isDoc(v)) {
    const out: Doc = {};
    for (const [k, x] of Object.entries(v)) out[k] = plainMaps(x);
    return out;
  }
  return v;
}

/** A client entity and the command events it has recorded (those it observes). */
export interface ClientEntity {
  client: MongoClient;
  observe: Set<string>;
  ignore: Set<string>;
  events: Doc[];
}

/** One test's entities by id, with the store's URI and the runner's own client. */
export interface TestContext {
  uri: string;
  clients: Map<string, ClientEntity>;
  entities: Map<string, unknown>;
  /** The runner's client (initial data, outcome, collection assertions), not an entity. */
  internal: MongoClient;
  /** Fail points the test configured, switched off after it. */
  failPoints: { client: MongoClient; name: string }[];
}

/** Client option names from the unified format's uriOptions (the driver spells some differently). */
function clientOptions(uriOptions: Doc | undefined): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(uriOptions ?? {})) {
    if (k === 'w') out.writeConcern = { ...((out.writeConcern as Doc) ?? {}), w: v };
    else if (k === 'readConcernLevel') out.readConcern = { level: v };
    else out[k] = v;
  }
  return out;
}

/** Creates the entities of a createEntities list into `ctx`, clients connected. */
export async function createEntities(list: Doc[], ctx: TestContext): Promise<void> {
  for (const item of list) {
    const [kind, spec] = Object.entries(item)[0] as [string, Doc];
    const id = spec.id as string;
    if (kind === 'client') {
      const observe = new Set((spec.observeEvents as string[] | undefined) ?? []);
      const ignore = new Set(
        ((spec.ignoreCommandMonitoringEvents as string[] | undefined) ?? []).concat([
          'configureFailPoint',
        ]),
      );
      const client = new MongoClient(ctx.uri, {
        monitorCommands: true,
        serverSelectionTimeoutMS: 5000,
        ...clientOptions(spec.uriOptions as Doc | undefined),
      });
      const ent: ClientEntity = { client, observe, ignore, events: [] };
      const SENSITIVE = new Set(['hello', 'ismaster', 'saslstart', 'saslcontinue', 'getnonce']);
      const record = (kind: string) => (e: CommandStartedEvent | CommandSucceededEvent) => {
        if (!observe.has(kind)) return;
        if (ignore.has(e.commandName) || SENSITIVE.has(e.commandName.toLowerCase())) return;
        if (kind === 'commandStartedEvent') {
          const s = e as CommandStartedEvent;
          ent.events.push({
            commandStartedEvent: {
              command: plainMaps(s.command),
              commandName: s.commandName,
              databaseName: s.databaseName,
            },
          });
        } else {
          const s = e as CommandSucceededEvent;
          ent.events.push({
            commandSucceededEvent: { reply: s.reply, commandName: s.commandName },
          });
        }
      };
      client.on('commandStarted', record('commandStartedEvent'));
      client.on('commandSucceeded', record('commandSucceededEvent'));
      await client.connect();
      ctx.clients.set(id, ent);
      ctx.entities.set(id, client);
    } else if (kind === 'database') {
      const client = ctx.clients.get(spec.client as string)!.client;
      ctx.entities.set(id, client.db(spec.databaseName as string, spec.databaseOptions as Doc));
    } else if (kind === 'collection') {
      const db = ctx.entities.get(spec.database as string) as Db;
      ctx.entities.set(
        id,
        db.collection(spec.collectionName as string, spec.collectionOptions as Doc),
      );
    } else if (kind === 'session') {
      const client = ctx.clients.get(spec.client as string)!.client;
      ctx.entities.set(id, client.startSession());
    } else {
      throw new Mismatch(`unsupported entity type ${kind}`);
    }
  }
}
