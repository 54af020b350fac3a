// explain: how a find, count, distinct or aggregate would read its collection (the plan) and,
// with `executionStats` or `allPlansExecution`, what running it examined. Drivers send
// `{ explain: <command>, verbosity }` (cursor.explain(), collection.find().explain(...)).
import { failedToParse, unsupported } from '../errors';
import { type Doc, isPlainObject } from '../values';
import { leadingStages } from './aggregate';
import { asDoc, type CmdContext, collName, toNumber } from './context';
import { countRecords, findRecords, readEnv } from './query';
import { newStats, type ScanStats } from './scan';

const VERBOSITIES = new Set(['queryPlanner', 'executionStats', 'allPlansExecution']);

export function explain(cmd: Doc, ctx: CmdContext): Doc {
  const inner = cmd.explain;
  if (!isPlainObject(inner) || Object.keys(inner).length === 0) {
    throw failedToParse('explain must be a command document');
  }
  const verbosity = cmd.verbosity === undefined ? 'allPlansExecution' : cmd.verbosity;
  if (typeof verbosity !== 'string' || !VERBOSITIES.has(verbosity)) {
    throw failedToParse(
      `verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}`,
    );
  }
  const kind = Object.keys(inner)[0];
  const name = collName(inner, kind);
  const coll = ctx.state.store.getColl(ctx.db, name);
  const env = readEnv(inner, inner.let, coll?.defaultCollation);
  const stats = newStats();
  const started = performance.now();
  let filter: Doc;
  let sort: Doc | undefined;
  let nReturned: number;
  if (kind === 'find') {
    filter = asDoc(inner.filter, 'filter');
    sort = inner.sort ? asDoc(inner.sort, 'sort') : undefined;
    const skip = toNumber(inner.skip, 0);
    const limit = Math.abs(toNumber(inner.limit, 0));
    nReturned = findRecords(coll, filter, { sort, skip, limit, stats }, env).length;
  } else if (kind === 'count') {
    filter = asDoc(inner.query, 'query');
    nReturned = countRecords(coll, filter, env, stats);
  } else if (kind === 'distinct') {
    filter = asDoc(inner.query, 'query');
    nReturned = findRecords(coll, filter, { stats }, env).length;
  } else if (kind === 'aggregate' && Array.isArray(inner.pipeline)) {
    // The leading $match/$sort/$skip/$limit (what reads the collection), or countDocuments.
    const lead = leadingStages(inner.pipeline as Doc[]);
    filter = lead.filter;
    sort = lead.sort;
    nReturned = lead.countGroup
      ? countRecords(coll, filter, env, stats)
      : findRecords(coll, filter, { sort, skip: lead.skip, limit: lead.limit, stats }, env).length;
  } else throw unsupported(`explain of ${kind}`);
  const reply: Doc = {
    queryPlanner: {
      namespace: `${ctx.db}.${name}`,
      parsedQuery: filter,
      winningPlan: winningPlan(stats, sort),
      rejectedPlans: [],
    },
  };
  if (verbosity !== 'queryPlanner') {
    reply.executionStats = {
      executionSuccess: true,
      nReturned,
      executionTimeMillis: Math.round(performance.now() - started),
      totalKeysExamined: stats.keysExamined,
      totalDocsExamined: stats.docsExamined,
    };
  }
  return { ...reply, command: inner, ok: 1 };
}

/** The plan as MongoDB's stage tree: [SORT] over FETCH over IXSCAN, or a COLLSCAN. */
function winningPlan(stats: ScanStats, sort: Doc | undefined): Doc {
  let plan: Doc;
  if (stats.index) {
    const ixscan: Doc = { stage: 'IXSCAN', indexName: stats.index.name, ...stats.index };
    delete ixscan.name;
    plan = stats.exact && !stats.docsExamined ? ixscan : { stage: 'FETCH', inputStage: ixscan };
  } else plan = { stage: stats.plan === 'COLLSCAN' ? 'COLLSCAN' : stats.plan };
  if (sort && Object.keys(sort).length && !stats.indexSorted) {
    plan = { stage: 'SORT', sortPattern: sort, inputStage: plan };
  }
  return { ...plan, planSummary: stats.plan, indexSorted: stats.indexSorted, exact: stats.exact };
}
