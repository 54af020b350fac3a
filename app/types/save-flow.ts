import type { ZodType, ZodTypeDef } from 'zod';

import type { FieldErrors } from './forms';

/**
 * The contract of the shared save flow of the uploaded entities (app/services/upload-flow.server.ts)
 * with its two clients: the admin forms (FORM_CLIENT and answerForm, app/services/upload-form.server.ts) and
 * the JSON API (app/api/upload-routes.server.ts). Types only, so the API's side depends on no
 * service module.
 */
export type TextFields = Record<string, string>;

/**
 * A new record, or the record with this id (null: the URL's id is not an id, so there is
 * no such record).
 */
export type SaveTarget = { mode: 'create' } | { mode: 'update'; id: number | null };

/** The text fields as a client validates them; `submission` is what it needs to answer. */
export type FieldsRead<T, S> = { submission: S } & (
  { ok: true; value: T } | { ok: false; errors: FieldErrors }
);

/** What differs between the admin pages and the API (the flow itself does not). */
export type SaveClient<S> = {
  /** The pages validate through conform (its coercion, its submission), the API with the bare schema. */
  readFields<T>(schema: ZodType<T, ZodTypeDef, unknown>, fields: TextFields): FieldsRead<T, S>;
  /**
   * The API's PUT: `type`, `featured` and `category` that are not sent keep their values, and
   * so does the duration unless a new audio file comes. The page forms always send them.
   */
  keepUnsent: boolean;
};

export type SaveResult<R, S> =
  | { ok: true; status: 200 | 201; record: R }
  // Before the body is read.
  | { ok: false; reason: 'not-found'; status: 404 }
  // The body as a whole is refused (the upload parser's status and message).
  | {
      ok: false;
      reason: 'payload-too-large' | 'unsupported-type' | 'malformed';
      status: number;
      message: string;
    }
  // After the body was read; its files are deleted again.
  | ({ ok: false; submission: S } & (
      | {
          reason: 'invalid';
          status: 400;
          /** From the schema. */
          fieldErrors: FieldErrors;
          /**
           * Found past the schema: per file (wrong type, too big, required and missing), and
           * the entity's checks against its files (a tracklist past the audio's end).
           */
          fileErrors: FieldErrors;
          /** A required file was not sent (create only). */
          missingFiles: boolean;
        }
      | { reason: 'conflict'; status: 409; field: string; message: string }
      /** The record was deleted while the upload was read. */
      | { reason: 'gone'; status: 404 }
      /** Saving threw (the caller decides: a form error, or a 500). */
      | { reason: 'failed'; status: 500; error: unknown }
    ));
