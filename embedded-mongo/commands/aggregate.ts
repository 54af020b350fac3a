// The aggregate command: leading $match/$sort/$skip/$limit served by the indexes, countDocuments
// answered without building documents, the rest of the pipeline run by mingo.
import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import type { Options } from 'mingo/types';

import { checkCollatedPipeline } from '../collation';
import { failedToParse, MongoError, unsupported } from '../errors';
import { type Doc, isPlainObject } from '../values';
import { asDoc, type CmdContext, outDoc, toNumber } from './context';
import { batchSizeOf, makeCursor } from './cursors';
import { finalWriteStage, runWriteStage } from './out-merge';
import { checkUnsupported, countRecords, findRecords, mingoOptions, readEnv } from './query';

const UNSUPPORTED_STAGES: Record<string, string> = {
  $changeStream: 'Change streams ($changeStream)',
  $geoNear: 'Geospatial aggregation ($geoNear)',
  $search: 'Atlas Search ($search)',
  $searchMeta: 'Atlas Search ($searchMeta)',
  $vectorSearch: 'Vector search ($vectorSearch)',
  $collStats: '$collStats',
  $indexStats: '$indexStats',
  $currentOp: '$currentOp',
  $listSessions: '$listSessions',
};

/** Stages that may start an `aggregate: 1` (database-level) pipeline here. */
const DB_LEVEL_STAGES = new Set(['$documents', '$listLocalSessions']);

export function aggregate(cmd: Doc, ctx: CmdContext): Doc {
  const target = cmd.aggregate;
  const env = readEnv(
    cmd,
    cmd.let,
    typeof target === 'string' ? ctx.state.store.getColl(ctx.db, target)?.defaultCollation : null,
  );
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline))
    throw failedToParse("'pipeline' option must be specified as an array");
  for (const stage of pipeline) {
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
      throw failedToParse('A pipeline stage specification object must contain exactly one field.');
    }
    const op = Object.keys(stage)[0];
    if (op in UNSUPPORTED_STAGES) throw unsupported(UNSUPPORTED_STAGES[op]);
  }
  checkUnsupported(pipeline);
  if (env.collation) checkCollatedPipeline(pipeline);
  if (cmd.explain) throw unsupported('explain');
  const store = ctx.state.store;
  const ns = `${ctx.db}.${target === 1 ? '$cmd.aggregate' : String(target)}`;
  // A final $out / $merge (commands/out-merge.ts) writes what the stages before it produce.
  const write = finalWriteStage(pipeline as Doc[]);
  const finish = (docs: Doc[]): Doc => {
    if (!write) return makeCursor(ctx, ns, docs, batchSizeOf(cmd));
    runWriteStage(write, docs, ctx);
    return makeCursor(ctx, ns, [], batchSizeOf(cmd));
  };
  if (write) pipeline.pop();
  if (target === 1) checkDatabaseLevel(pipeline as Doc[], ctx);
  else if (typeof target !== 'string') throw failedToParse('aggregate must name a collection');
  else if (pipeline.some((stage: Doc) => '$documents' in stage)) {
    throw new MongoError(
      40602,
      'Location40602',
      '$documents is only valid as the first stage of an {aggregate: 1} pipeline',
    );
  }
  const coll = typeof target === 'string' ? store.getColl(ctx.db, target) : undefined;
  // Run leading $match / $sort / $skip / $limit ourselves so indexes can serve them.
  const { filter, sort, skip, limit, rest, countGroup } = leadingStages(pipeline as Doc[]);
  // countDocuments: [$match, ($skip), ($limit), {$group: {_id: 1, n: {$sum: 1}}}]
  if (countGroup) {
    let n = countRecords(coll, filter, env);
    n = Math.max(0, n - skip);
    if (limit) n = Math.min(n, limit);
    const docs = n > 0 ? [{ _id: countGroup.id, [countGroup.as]: n }] : [];
    return finish(docs);
  }
  const recs = findRecords(coll, filter, { sort, skip, limit }, env);
  let docs = recs.map(([, r]) => outDoc(r));
  if (rest.length) {
    const resolver = (name: string): Doc[] => {
      const c = store.getColl(ctx.db, name);
      return c ? [...c.records.values()].map(outDoc) : [];
    };
    const options: Partial<Options> = {
      ...mingoOptions(env),
      processingMode: ProcessingMode.CLONE_INPUT,
      collectionResolver: resolver,
    };
    try {
      docs = new Aggregator(rest, options).run<Doc>(docs);
    } catch (e) {
      if (e instanceof MongoError) throw e;
      throw failedToParse(`aggregation failed: ${(e as Error).message}`);
    }
  }
  return finish(docs);
}

/** A pipeline's leading $match, $sort, $skip and $limit, which the indexes may serve. */
export interface LeadingStages {
  filter: Doc;
  sort?: Doc;
  skip: number;
  limit: number;
  rest: Doc[];
  /** The rest is countDocuments' `$group` (the count's _id and field name). */
  countGroup?: { id: unknown; as: string };
}

export function leadingStages(pipeline: Doc[]): LeadingStages {
  let i = 0;
  let filter: Doc = {};
  let sort: Doc | undefined;
  let skip = 0;
  let limit = 0;
  if (i < pipeline.length && '$match' in pipeline[i]) {
    filter = asDoc(pipeline[i].$match, '$match');
    i++;
  }
  if (i < pipeline.length && '$sort' in pipeline[i]) {
    sort = asDoc(pipeline[i].$sort, '$sort');
    i++;
  }
  while (i < pipeline.length && ('$skip' in pipeline[i] || '$limit' in pipeline[i])) {
    if ('$skip' in pipeline[i]) {
      if (limit) break;
      skip += toNumber(pipeline[i].$skip);
    } else {
      const l = toNumber(pipeline[i].$limit);
      limit = limit ? Math.min(limit, l) : l;
    }
    i++;
  }
  const rest = pipeline.slice(i);
  const out: LeadingStages = { filter, sort, skip, limit, rest };
  if (rest.length === 1 && isCountGroup(rest[0])) {
    const g = rest[0].$group as Doc;
    out.countGroup = { id: g._id, as: Object.keys(g).find((k) => k !== '_id')! };
  }
  return out;
}

/**
 * `aggregate: 1` runs pipelines that start with $documents or $listLocalSessions (MongoDB: 73 for
 * other stages); the sessions become the $documents they list.
 */
function checkDatabaseLevel(pipeline: Doc[], ctx: CmdContext): void {
  const first = pipeline.length ? Object.keys(pipeline[0])[0] : '';
  if (first === '$listLocalSessions') {
    pipeline[0] = { $documents: ctx.state.sessions.list(pipeline[0].$listLocalSessions) };
  }
  if (DB_LEVEL_STAGES.has(first)) return;
  throw new MongoError(
    73,
    'InvalidNamespace',
    `{aggregate: 1} is not valid for '${first || 'an empty pipeline'}'; a collection is required.`,
  );
}

function isCountGroup(stage: Doc): boolean {
  const g = stage.$group;
  if (!isPlainObject(g)) return false;
  const keys = Object.keys(g);
  if (keys.length !== 2 || !keys.includes('_id')) return false;
  const id = g._id;
  if (isPlainObject(id) || Array.isArray(id) || (typeof id === 'string' && id.startsWith('$')))
    return false;
  const acc = g[keys.find((k) => k !== '_id')!];
  return isPlainObject(acc) && Object.keys(acc).length === 1 && acc.$sum === 1;
}
