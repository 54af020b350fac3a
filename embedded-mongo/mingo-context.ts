// One shared mingo context with every operator loaded once (the main `mingo` export rebuilds it
// on every call, which is several times slower). `$sort`, `$sortByCount` and `$group` are ours
// (bson-order.ts): BSON type order, as MongoDB sorts mixed types, and MongoDB's key equality;
// so are the query operators `$all`, `$gte` and `$lte` (query-ops.ts).
import { Context, ProcessingMode } from 'mingo/core';
import * as accumulator from 'mingo/operators/accumulator';
import * as expression from 'mingo/operators/expression';
import * as pipeline from 'mingo/operators/pipeline';
import * as projection from 'mingo/operators/projection';
import * as query from 'mingo/operators/query';
import * as window from 'mingo/operators/window';
import type { Options } from 'mingo/types';

import { GROUP_KEY_OP, groupKeyOp, groupStage, sortStages, type StringOrder } from './bson-order';
import { QUERY_OPS } from './query-ops';
import {
  BUCKET_OF_OP,
  bucketOfOp,
  bucketStage,
  internalFunctionOp,
  setWindowFieldsStage,
} from './stages';

type OpTable = Record<string, (...args: never[]) => unknown>;

/**
 * A mingo context: every operator mingo has, our BSON-order `$sort`/`$sortByCount` for strings
 * ordered by `order` (null: binary), and `extra` operators replacing mingo's of the same name.
 */
export function makeContext(
  order: StringOrder | null,
  extra: { query?: OpTable; expression?: OpTable; pipeline?: OpTable } = {},
): Context {
  return Context.init({
    accumulator,
    expression: {
      ...expression,
      [GROUP_KEY_OP]: groupKeyOp,
      [BUCKET_OF_OP]: bucketOfOp,
      // Calls only the functions mingo's own $setWindowFields builds (stages.ts).
      $function: internalFunctionOp,
      ...extra.expression,
    },
    pipeline: {
      ...pipeline,
      ...sortStages(order),
      $group: groupStage(order),
      $bucket: bucketStage(order),
      $setWindowFields: setWindowFieldsStage(order),
      ...extra.pipeline,
    },
    projection,
    query: { ...query, ...QUERY_OPS, ...extra.query },
    window,
  } as Parameters<typeof Context.init>[0]);
}

export const CONTEXT = makeContext(null);

export const QUERY_OPTIONS: Partial<Options> = {
  idKey: '_id',
  processingMode: ProcessingMode.CLONE_OFF,
  useStrictMode: true,
  scriptEnabled: false,
  failOnError: true,
  context: CONTEXT,
};
