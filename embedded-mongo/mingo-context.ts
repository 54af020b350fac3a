// One shared mingo context with every operator loaded once (the main `mingo` export rebuilds it
// on every call, which is several times slower).
import { Context, ProcessingMode } from 'mingo/core';
import * as accumulator from 'mingo/operators/accumulator';
import * as expression from 'mingo/operators/expression';
import * as pipeline from 'mingo/operators/pipeline';
import * as projection from 'mingo/operators/projection';
import * as query from 'mingo/operators/query';
import * as window from 'mingo/operators/window';
import type { Options } from 'mingo/types';

export const CONTEXT = Context.init({
  accumulator,
  expression,
  pipeline,
  projection,
  query,
  window,
} as Parameters<typeof Context.init>[0]);

export const QUERY_OPTIONS: Partial<Options> = {
  idKey: '_id',
  processingMode: ProcessingMode.CLONE_OFF,
  useStrictMode: true,
  scriptEnabled: false,
  failOnError: true,
  context: CONTEXT,
};
