import mongoose, { type Model, type QueryFilter, type Schema } from 'mongoose';

import { cachedRead } from '~/platform/read-cache.server';

/** Define a model once, even when the dev server re-evaluates modules. */
export function defineModel<T>(name: string, schema: Schema<T>, collection: string): Model<T> {
  return (
    (mongoose.models[name] as Model<T> | undefined) ?? mongoose.model<T>(name, schema, collection)
  );
}

export const iso = (d: Date | string | undefined | null): string =>
  d ? new Date(d).toISOString() : new Date(0).toISOString();

/** Parse a numeric id from a URL segment; null when it is not a positive integer. */
export function parseId(value: string | undefined | null): number | null {
  if (!value || !/^\d{1,12}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * The record a URL segment names by its id (`params.id`) through `get`; null when there is
 * none, also when the segment is not an id (then `get` is not called).
 */
export async function findByIdParam<T>(
  value: string | undefined,
  get: (id: number) => Promise<T | null>,
): Promise<T | null> {
  const id = parseId(value);
  return id === null ? null : get(id);
}

/** True for a MongoDB duplicate-key error. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    (error as { code?: unknown }).code === 11000
  );
}

/**
 * What a cached read asks for. The same object builds the query and is the cache key
 * (app/platform/read-cache.server.ts), so two reads share an entry only when they ask the same:
 * a different filter, sort, projection (`fields`) or limit is a different entry.
 */
export type FindSpec<T, K extends keyof T> = {
  filter?: Record<string, unknown>;
  sort?: Record<string, 1 | -1>;
  /** Only these fields (a projection); all of them when absent. */
  fields?: readonly K[];
  limit?: number;
};

function buildFind<T, K extends keyof T>(model: Model<T>, spec: FindSpec<T, K>) {
  const projection = spec.fields
    ? Object.fromEntries(spec.fields.map((field) => [field, 1]))
    : undefined;
  let query = model.find((spec.filter ?? {}) as QueryFilter<T>, projection);
  if (spec.sort) query = query.sort(spec.sort);
  if (spec.limit) query = query.limit(spec.limit);
  return query;
}

/** Lean `find` through the read cache. */
export function cachedFind<T, K extends keyof T = keyof T>(
  model: Model<T>,
  spec: FindSpec<T, K> = {},
): Promise<Pick<T, K>[]> {
  return cachedRead([model.collection.collectionName, 'find', spec], () =>
    buildFind(model, spec).lean<Pick<T, K>[]>().exec(),
  );
}

/** Lean `findOne` (the first match in `sort` order) through the read cache. */
export function cachedFindOne<T, K extends keyof T = keyof T>(
  model: Model<T>,
  spec: Omit<FindSpec<T, K>, 'limit'> = {},
): Promise<Pick<T, K> | null> {
  return cachedRead([model.collection.collectionName, 'findOne', spec], async () => {
    const [first] = await buildFind(model, { ...spec, limit: 1 })
      .lean<Pick<T, K>[]>()
      .exec();
    return first ?? null;
  });
}

/** `countDocuments` through the read cache. */
export function cachedCount<T>(model: Model<T>, filter: Record<string, unknown> = {}) {
  return cachedRead([model.collection.collectionName, 'count', filter], () =>
    model.countDocuments(filter as QueryFilter<T>).exec(),
  );
}
