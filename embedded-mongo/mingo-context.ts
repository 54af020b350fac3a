// One shared mingo context with every operator loaded once (the main `mingo` export rebuilds it
// on every call, which is several times slower). `$sort` and `$sortByCount` are ours
// (bson-order.ts): BSON type order, as MongoDB sorts mixed types.
import { Context, ProcessingMode } from 'mingo/core';
import * as accumulator from 'mingo/operators/accumulator';
import * as expression from 'mingo/operators/expression';
import * as pipeline from 'mingo/operators/pipeline';
import * as projection from 'mingo/operators/projection';
import * as query from 'mingo/operators/query';
import * as window from 'mingo/operators/window';
import type { Options } from 'mingo/types';
import { sortStages, type StringOrder } from './bson-order';

type QueryOp = (selector: string, value: unknown, options: Options) => (doc: unknown) => boolean;

/** A mingo context; `order` and `queryOps` replace string ordering and query operators. */
export function makeContext(
  order: StringOrder | null,
  queryOps: Record<string, QueryOp> = {},
): Context {
  return Context.init({
    accumulator,
    expression,
    pipeline: { ...pipeline, ...sortStages(order) },
    projection,
    query: { ...query, ...queryOps },
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
