// Pipeline updates whose stages replace the whole document ($replaceWith, $replaceRoot): mingo's
// updater cannot report what they changed ("failed to retrieve modified fields"), so they run
// here as an aggregation over the one document. They are how MongoDB 5.0+ writes field names
// with dots and dollars into an existing document ($setField, $unsetField, $getField).
import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';

import type { Rec } from '../engine';
import { failedToParse, MongoError } from '../errors';
import { QUERY_OPTIONS } from '../mingo-context';
import { cloneDeep, type Doc, isPlainObject, keyOf, pruneNotes } from '../values';
import { checkUnsupported } from './query';

const REPLACING = new Set(['$replaceWith', '$replaceRoot']);
/** The stages MongoDB accepts in an update pipeline. */
const UPDATE_STAGES = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
]);

/** The pipeline applied to a copy of `rec`, or null when mingo's updater handles it. */
export function replacingPipelineUpdate(
  rec: Rec,
  pipeline: Doc[],
): { rec: Rec; modified: boolean } | null {
  if (!pipeline.some((stage) => isPlainObject(stage) && REPLACING.has(Object.keys(stage)[0]))) {
    return null;
  }
  checkUnsupported(pipeline);
  for (const stage of pipeline) {
    const op = isPlainObject(stage) ? Object.keys(stage)[0] : '';
    if (!UPDATE_STAGES.has(op)) {
      throw new MongoError(
        72,
        'InvalidOptions',
        `${op} is not allowed to be used within an update`,
      );
    }
  }
  const old = rec.doc;
  let out: Doc[];
  try {
    out = new Aggregator(pipeline, {
      ...QUERY_OPTIONS,
      processingMode: ProcessingMode.CLONE_INPUT,
    }).run<Doc>([cloneDeep(old)]);
  } catch (e) {
    throw failedToParse(`invalid pipeline update: ${(e as Error).message}`);
  }
  let next = out[0] ?? {};
  // A result without _id keeps the document's; another _id is refused, as for any update.
  if (next._id === undefined && old._id !== undefined) next = { _id: old._id, ...next };
  else if (old._id !== undefined && keyOf(next._id) !== keyOf(old._id)) {
    throw new MongoError(
      66,
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
  return {
    rec: { doc: next, notes: pruneNotes(next, rec.notes) },
    modified: keyOf(next) !== keyOf(old),
  };
}
