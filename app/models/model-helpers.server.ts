import mongoose, { type Model, type Schema } from 'mongoose';

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

/** Escape a user string for use inside a RegExp (search boxes). */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True for a MongoDB duplicate-key error. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    (error as { code?: unknown }).code === 11000
  );
}
