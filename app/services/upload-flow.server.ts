import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import type { ZodType, ZodTypeDef } from 'zod';

import { getUserId, requireAdmin } from '~/auth/auth.server';
import { prepareUploadedImage } from '~/files/image-derivatives.server';
import {
  checkResumableUpload,
  claimResumableUpload,
  type ResumableUpload,
} from '~/files/resumable-upload-store.server';
import { releaseStagingCopies, storeUpload } from '~/files/stored-files.server';
import {
  discardUploads,
  type ParsedUpload,
  parseMultipartUpload,
  type StoredUpload,
  UPLOAD_MESSAGES,
  type UploadSpec,
} from '~/files/uploads.server';
import { parseId } from '~/models/model-helpers.server';
import { finishUnreadBody } from '~/platform/request-body.server';
import { IMAGE_FILE_MESSAGE } from '~/schemas/image';
import type { UserJSON } from '~/types/entities';
import type { FieldErrors } from '~/types/forms';
import type { SaveClient, SaveResult, SaveTarget, TextFields } from '~/types/save-flow';

import { loadAdminItem } from './admin-item.server';
import { type EntityForm, submitUploadForm } from './upload-form.server';

export type { EntityForm } from './upload-form.server';

/**
 * The one save flow of the uploaded entities (tracks, gallery images, blog posts), shared by
 * the admin forms and the JSON API:
 *
 *   route → services/<entity>-save.server.ts (the entity's fields, record writes and texts)
 *         → this module (the admin check, the flow, the form's answer)
 *         → files/uploads.server.ts (the streaming multipart parser)
 *
 * `saveUpload` streams the multipart body, validates the text fields, adds the per-file
 * problems and the required files that are missing (a file may also come as the id of a
 * finished resumable upload, decision 036), writes the responsive sizes of the
 * images, puts the files into the media store, and creates or updates the record (the model
 * deletes replaced files). On any failure after the body was read, the files it brought are
 * deleted again. It answers a result, never an HTTP response: the admin forms turn it into a
 * conform reply or a redirect with a toast (`answerForm`, upload-form.server.ts), the API into JSON
 * (`answerApi` in app/api/upload-routes.server.ts, which may not import services).
 */

/**
 * `requireAdmin` for the upload actions. A refused request's body is read and dropped before
 * the redirect goes out (`finishUnreadBody`): answering while the client is still sending
 * makes the server reset the connection, and the client would see a network error, not the
 * redirect.
 */
export async function requireAdminForUpload(request: Request): Promise<UserJSON> {
  try {
    return await requireAdmin(request);
  } catch (error) {
    if (error instanceof Response) throw await finishUnreadBody(request, error);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------
// The flow, and each entity's part of it
// ---------------------------------------------------------------------------------------

export type SaveInput<T, R> = {
  value: T;
  fields: TextFields;
  files: Record<string, StoredUpload>;
  /** The record being updated; null on create. */
  existing: R | null;
  keepUnsent: boolean;
};

/** What `check` sees: the fields, and each file field's local path (a new upload's). */
export type CheckInput<T, R> = Pick<SaveInput<T, R>, 'value' | 'existing' | 'keepUnsent'> & {
  filePaths: Record<string, string>;
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
  /**
   * The entity's checks that need the files (a tracklist against the audio's length), once the
   * fields and files passed theirs: field errors refuse the save (400). A form upload is then
   * discarded like on any refusal; a resumable one stays for the next try.
   */
  check?(input: CheckInput<T, R>): Promise<FieldErrors | null>;
  /** A save error that is the client's conflict (a taken slug): its field and message. */
  conflict?(error: unknown): { field: string; message: string } | null;
  /**
   * File fields that may come as a finished resumable upload instead (decision 036): file
   * field → the text field carrying the upload's id (the track's `audioFile` → `audioUploadId`).
   */
  uploadIds?: Readonly<Record<string, string>>;
};

/**
 * The resumable uploads a request names in place of files: each id checked (this admin's,
 * finished, within the cap, the content checks of a form upload), problems on the id's field.
 * Nothing is moved yet: `claimUploads` does that once the text fields are valid, so a form
 * sent back with an error keeps its upload for the next try.
 */
async function checkUploadIds(
  request: Request,
  uploadIds: Readonly<Record<string, string>>,
  upload: ParsedUpload,
  fileErrors: FieldErrors,
): Promise<Record<string, ResumableUpload>> {
  const pending: Record<string, ResumableUpload> = {};
  for (const [fileField, idField] of Object.entries(uploadIds)) {
    const id = upload.fields[idField]?.trim();
    if (!id) continue;
    if (upload.files[fileField] || upload.fileErrors[fileField]) {
      fileErrors[idField] = ['Send the file or the id of its finished upload, not both.'];
      continue;
    }
    // The route has checked the admin; this only says who it is (an upload is its owner's).
    const userId = await getUserId(request);
    const checked = userId === null ? null : await checkResumableUpload(id, userId);
    if (checked?.ok) pending[fileField] = checked.upload;
    else fileErrors[idField] = [checked?.message ?? 'Authentication required'];
  }
  return pending;
}

/** Move the checked uploads into place as the request's files; the first problem, if any. */
async function claimUploads(
  pending: Record<string, ResumableUpload>,
  uploadIds: Readonly<Record<string, string>>,
  files: Record<string, StoredUpload>,
): Promise<FieldErrors | null> {
  for (const [fileField, resumable] of Object.entries(pending)) {
    const claimed = await claimResumableUpload(resumable);
    if (!claimed.ok) return { [uploadIds[fileField] ?? fileField]: [claimed.message] };
    files[fileField] = claimed.file;
  }
  return null;
}

/** The upload of gallery images and blog posts: one image, required on create. */
const ONE_IMAGE: Pick<UploadFlow<unknown, unknown>, 'uploads' | 'requiredFiles'> = {
  uploads: { image: { kind: 'image' } },
  requiredFiles: { image: IMAGE_FILE_MESSAGE },
};

/**
 * The image forms' (gallery, blog) one message for a missing or wrong-type image; the size
 * message stays specific.
 */
const imageFieldErrors = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([name, messages]) => [
      name,
      messages.map((e) => (e === UPLOAD_MESSAGES.imageType ? IMAGE_FILE_MESSAGE : e)),
    ]),
  );

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
    const uploadIds = flow.uploadIds ?? {};
    const pending = await checkUploadIds(request, uploadIds, upload, fileErrors);
    let missingFiles = false;
    if (!existing) {
      for (const [name, message] of Object.entries(flow.requiredFiles)) {
        const idField = uploadIds[name];
        if (files[name] || fileErrors[name] || pending[name]) continue;
        if (idField && fileErrors[idField]) continue;
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

    // Before the resumable uploads are claimed: refused, they stay for the next try.
    const checkErrors = await flow.check?.({
      value: read.value,
      existing,
      keepUnsent: client.keepUnsent,
      filePaths: {
        ...Object.fromEntries(Object.entries(files).map(([name, file]) => [name, file.path])),
        ...Object.fromEntries(Object.entries(pending).map(([name, up]) => [name, up.path])),
      },
    });
    if (checkErrors) {
      return {
        ok: false,
        reason: 'invalid',
        status: 400,
        fieldErrors: {},
        fileErrors: checkErrors,
        missingFiles: false,
        submission,
      };
    }

    const claimErrors = await claimUploads(pending, uploadIds, files);
    if (claimErrors) {
      return {
        ok: false,
        reason: 'invalid',
        status: 400,
        fieldErrors: {},
        fileErrors: claimErrors,
        missingFiles: false,
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

// ---------------------------------------------------------------------------------------
// An entity's two entry points
// ---------------------------------------------------------------------------------------

/**
 * An uploaded entity's entry points over its flow: `save` for /api/admin/<entity> (the API
 * passes its client, app/api/upload-routes.server.ts); `submitForm`, the admin form's answer
 * (`submitUploadForm`, upload-form.server.ts); and `formAction`, the action of the add and
 * edit routes: the admin check (`requireAdminForUpload`), then a create on the add route (no
 * `id` param) or an update of `params.id`, back to `listUrl(request.url)`; `editLoader`, the
 * edit route's loader.
 *
 * @example export const action = (args: ActionFunctionArgs) => blogFormAction(args, blogListUrl);
 */
export function uploadEntity<T, R>(flow: UploadFlow<T, R>, form: EntityForm<R>) {
  const save = <S>(
    request: Request,
    target: SaveTarget,
    client: SaveClient<S>,
  ): Promise<SaveResult<R, S>> => saveUpload(request, target, flow, client);
  const submitForm = (request: Request, target: SaveTarget, listUrl: string) =>
    submitUploadForm(request, target, listUrl, form, save);
  async function formAction(
    { request, params }: Pick<ActionFunctionArgs, 'request' | 'params'>,
    listUrl: (url: string) => string,
  ) {
    await requireAdminForUpload(request);
    const target: SaveTarget =
      params.id === undefined ? { mode: 'create' } : { mode: 'update', id: parseId(params.id) };
    return submitForm(request, target, listUrl(request.url));
  }
  /** The loader of the record's dialogs (edit, a preview): `loadAdminItem` with the entity's `load`. */
  const editLoader = (
    args: Pick<LoaderFunctionArgs, 'request' | 'params'>,
    listUrl: (url: string) => string,
  ) => loadAdminItem(args, flow.load, form.notFound, listUrl);
  return { save, submitForm, formAction, editLoader };
}

/** An entity's part of the flow when it takes one image (`uploadImageEntity` adds the files). */
export type ImageUploadFlow<T, R> = Omit<UploadFlow<T, R>, 'uploads' | 'requiredFiles'>;
/** Its form's texts (`uploadImageEntity` adds the image messages). */
export type ImageEntityForm<R> = Omit<EntityForm<R>, 'fileErrors'>;

/**
 * `uploadEntity` for an entity that takes one image, required on create (gallery images, blog
 * posts): its files (`ONE_IMAGE`) and the form's image messages (`imageFieldErrors`) added.
 */
export const uploadImageEntity = <T, R>(flow: ImageUploadFlow<T, R>, form: ImageEntityForm<R>) =>
  uploadEntity({ ...ONE_IMAGE, ...flow }, { ...form, fileErrors: imageFieldErrors });
