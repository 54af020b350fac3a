// Field names with dots and dollars, as MongoDB 5.0+ allows and refuses them ("Field Names with
// Periods and Dollar Signs" in MongoDB's manual):
// - inserts (and upserts that insert) may hold `$`-prefixed and dotted names, top level and
//   nested; only an `_id` document may not hold `$`-prefixed fields (DBRef's $ref/$id/$db aside);
// - a replacement document may not have a `$`-prefixed name at its top level;
// - an update operator's paths may not be empty or hold empty parts (56 EmptyFieldName), nor
//   `$`-prefixed parts other than the positional `$`, `$[]` and `$[<id>]` (52
//   DollarPrefixedFieldName) unless the update inserts a document (upsert);
// - pipeline updates may create any name ($setField, $replaceWith).
import { MongoError } from '../errors';
import { type Doc, isPlainObject } from '../values';

const DBREF_FIELDS = new Set(['$ref', '$id', '$db']);

function dollarPrefixed(message: string): MongoError {
  return new MongoError(52, 'DollarPrefixedFieldName', message);
}

/** An `_id` document may not contain `$`-prefixed fields (at any depth). */
export function checkIdValue(id: unknown): void {
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isPlainObject(v)) return;
    for (const [k, inner] of Object.entries(v)) {
      if (k.startsWith('$') && !DBREF_FIELDS.has(k)) {
        throw dollarPrefixed(
          `_id fields may not contain '$'-prefixed fields: ${k} is not valid for storage.`,
        );
      }
      visit(inner);
    }
  };
  visit(id);
}

/** A replacement document: no `$`-prefixed name at the top level. */
export function checkReplacementNames(doc: Doc): void {
  for (const k of Object.keys(doc)) {
    if (k.startsWith('$')) {
      throw dollarPrefixed(
        `The dollar ($) prefixed field '${k}' in '${k}' is not allowed in the context of an ` +
          "update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
      );
    }
  }
}

const POSITIONAL = /^\$(\[([a-z][a-zA-Z0-9]*)?\])?$/;

function checkPath(path: string, inserting: boolean): void {
  if (path === '') throw new MongoError(56, 'EmptyFieldName', 'An empty update path is not valid.');
  const parts = path.split('.');
  if (parts.some((p) => p === '')) {
    throw new MongoError(
      56,
      'EmptyFieldName',
      `The update path '${path}' contains an empty field name, which is not allowed.`,
    );
  }
  if (inserting) return;
  for (const part of parts) {
    if (part.startsWith('$') && !POSITIONAL.test(part)) {
      throw dollarPrefixed(
        `The dollar ($) prefixed field '${part}' in '${path}' is not valid for storage.`,
      );
    }
  }
}

/** The paths of an operator update (`{$set: {path: v}, ...}`; `$rename`'s targets too). */
export function checkUpdatePaths(update: Doc, inserting: boolean): void {
  for (const [op, spec] of Object.entries(update)) {
    if (!isPlainObject(spec)) continue;
    for (const [path, value] of Object.entries(spec)) {
      checkPath(path, inserting);
      if (op === '$rename' && typeof value === 'string') checkPath(value, inserting);
    }
  }
}

/**
 * An upsert that inserts may `$set` top-level `$`-prefixed fields, which mingo's updater does not
 * take: removes them from `mod.$set` and returns them, to be set on the new document directly.
 */
export function takeDollarSets(mod: Doc): Doc | null {
  const set = mod.$set;
  if (!isPlainObject(set)) return null;
  const taken: Doc = {};
  const kept: Doc = {};
  for (const [k, v] of Object.entries(set)) {
    if (k.startsWith('$') && !k.includes('.')) taken[k] = v;
    else kept[k] = v;
  }
  if (Object.keys(taken).length === 0) return null;
  if (Object.keys(kept).length) mod.$set = kept;
  else delete mod.$set;
  return taken;
}
