/** Messages per field name: what conform's `reply` and the /api `{ error, fields }` answers carry. */
export type FieldErrors = Record<string, string[]>;
