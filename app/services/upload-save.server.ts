import type { ZodType, ZodTypeDef } from 'zod';

import { prepareUploadedImage } from '~/files/image-derivatives.server';
import { releaseStagingCopies, storeUpload } from '~/files/stored-files.server';
import {
  discardUploads,
  type ParsedUpload,
  parseMultipartUpload,
  type StoredUpload,
  type UploadSpec,
} from '~/files/uploads.server';
import { IMAGE_FILE_MESSAGE } from '~/schemas/gallery';
import type {
  FieldErrors,
  SaveClient,
  SaveResult,
  SaveTarget,
  TextFields,
} from '~/types/save-flow';

/**
 * The one save flow of the uploaded entities (tracks, gallery images, blog posts), shared by
 * the admin pages and the JSON API: stream the multipart body, validate the text fields,
 * add the per-file problems and the required files that are missing, write the responsive
 * sizes of the images, put the files into the media store, create or update the record (the
 * model deletes replaced files). On any failure after the body was read, the files it brought
 * are deleted again.
 *
 * It answers a result, never an HTTP response: the pages turn it into a conform reply or a
 * redirect with a toast (app/services/upload-form.server.ts), the API into JSON
 * (app/api/upload-routes.server.ts). The entities' flows are in app/services/*-save.server.ts.
 */

export type {
  FieldErrors,
  FieldsRead,
  SaveClient,
  SaveResult,
  SaveTarget,
  TextFields,
} from '~/types/save-flow';

export type SaveInput<T, R> = {
  value: T;
  fields: TextFields;
  files: Record<string, StoredUpload>;
  /** The record being updated; null on create. */
  existing: R | null;
  keepUnsent: boolean;
};

/** One entity's part of the flow. */
export type UploadFlow<T, R> = {
  uploads: UploadSpec;
  schema: ZodType<T, ZodTypeDef, unknown>;
  /** On create: the message for each file field that must not be left empty. */
  requiredFiles: Record<string, string>;
  load(id: number): Promise<R | null>;
  /** Create (existing null) or update; null when the record is gone. */
  save(input: SaveInput<T, R>): Promise<R | null>;
  /** A save error that is the client's conflict (a taken slug): its field and message. */
  conflict?(error: unknown): { field: string; message: string } | null;
};

/** The upload of gallery images and blog posts: one image, required on create. */
export const ONE_IMAGE: Pick<UploadFlow<unknown, unknown>, 'uploads' | 'requiredFiles'> = {
  uploads: { image: { kind: 'image' } },
  requiredFiles: { image: IMAGE_FILE_MESSAGE },
};

function refused(status: number, message: string) {
  const reason =
    status === 413 ? 'payload-too-large' : status === 415 ? 'unsupported-type' : 'malformed';
  return { ok: false, reason, status, message } as const;
}

export async function saveUpload<T, R, S>(
  request: Request,
  target: SaveTarget,
  flow: UploadFlow<T, R>,
  client: SaveClient<S>,
): Promise<SaveResult<R, S>> {
  let existing: R | null = null;
  if (target.mode === 'update') {
    existing = target.id === null ? null : await flow.load(target.id);
    if (!existing) return { ok: false, reason: 'not-found', status: 404 };
  }

  let upload: ParsedUpload;
  try {
    upload = await parseMultipartUpload(request, flow.uploads);
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    return refused(error.status, await error.text());
  }
  const { fields, files } = upload;

  let saved = false;
  try {
    const read = client.readFields(flow.schema, fields);
    const { submission } = read;
    const fileErrors: FieldErrors = { ...upload.fileErrors };
    let missingFiles = false;
    if (!existing) {
      for (const [name, message] of Object.entries(flow.requiredFiles)) {
        if (files[name] || fileErrors[name]) continue;
        fileErrors[name] = [message];
        missingFiles = true;
      }
    }
    if (!read.ok || Object.keys(fileErrors).length > 0) {
      const fieldErrors = read.ok ? {} : read.errors;
      return {
        ok: false,
        reason: 'invalid',
        status: 400,
        fieldErrors,
        fileErrors,
        missingFiles,
        submission,
      };
    }

    try {
      for (const [name, file] of Object.entries(files)) {
        // Never throws for the image's content: an undecodable image is kept without sizes.
        if (flow.uploads[name]?.kind === 'image') await prepareUploadedImage(file.path);
        // Into the media store before the record points at it (GridFS; disk: in place).
        await storeUpload(file.url);
      }
      const record = await flow.save({
        value: read.value,
        fields,
        files,
        existing,
        keepUnsent: client.keepUnsent,
      });
      if (!record) return { ok: false, reason: 'gone', status: 404, submission };
      saved = true;
      return { ok: true, status: existing ? 200 : 201, record };
    } catch (error) {
      const conflict = flow.conflict?.(error);
      if (conflict) return { ok: false, reason: 'conflict', status: 409, ...conflict, submission };
      return { ok: false, reason: 'failed', status: 500, error, submission };
    }
  } finally {
    if (!saved) await discardUploads(files);
    // GridFS: the local copies were only the staging area.
    await Promise.all(Object.values(files).map((file) => releaseStagingCopies(file.url)));
  }
}
