import { isJsonRequest } from '~/platform/request-body.server';
import type { SaveClient, SaveResult, SaveTarget } from '~/types/save-flow';

import {
  adminApiAction,
  adminMethodNotAllowed,
  apiError,
  apiJson,
  issuesToFields,
  mergeFieldErrors,
  noContent,
  requireId,
  validationError,
} from './api.server';

/**
 * The API's side of the shared save flow (app/services): fields validated with the bare
 * schema, and PUT keeps what is not sent (type, featured, category, duration).
 */
export const API_CLIENT: SaveClient<undefined> = {
  readFields(schema, fields) {
    const parsed = schema.safeParse(fields);
    return parsed.success
      ? { ok: true, value: parsed.data, submission: undefined }
      : { ok: false, errors: issuesToFields(parsed.error.issues), submission: undefined };
  },
  keepUnsent: true,
};

/** `notFound` (updates only) and the `error` for a required file that was not sent. */
type ApiTexts = { notFound?: string; missingFiles?: string };

/**
 * A save result as the API's answer (docs/api.md): 201/200 with the record; 404 `notFound`;
 * the upload parser's 413/415/400; 400 with `fields` (the first message as `error`, or
 * `missingFiles` when a required file was not sent); 409 for a conflict; anything that
 * failed is thrown for `handleApi` (a 500).
 */
export function answerApi<R>(result: SaveResult<R, undefined>, texts: ApiTexts): Response {
  if (result.ok) return apiJson(result.record, result.status);
  switch (result.reason) {
    case 'not-found':
    case 'gone':
      return apiError(404, texts.notFound ?? 'Not found');
    case 'payload-too-large':
    case 'unsupported-type':
    case 'malformed':
      return apiError(result.status, result.message);
    case 'invalid':
      return validationError(
        mergeFieldErrors(result.fieldErrors, result.fileErrors),
        result.missingFiles ? texts.missingFiles : undefined,
      );
    case 'conflict':
      return apiError(409, result.message, { [result.field]: [result.message] });
    case 'failed':
      throw result.error;
  }
}

// ---------------------------------------------------------------------------------------
// The routes of the uploaded entities (/api/admin/tracks, /gallery, /blog)
// ---------------------------------------------------------------------------------------

type SaveFlow<R> = (
  request: Request,
  target: SaveTarget,
  client: SaveClient<undefined>,
) => Promise<SaveResult<R, undefined>>;

const ITEM_METHODS = ['PUT', 'DELETE'] as const;

/** POST /api/admin/<items>: the admin guard, POST only, then the save flow (201). */
export const createAction = <R>(request: Request, save: SaveFlow<R>, texts: ApiTexts = {}) =>
  adminApiAction(request, ['POST'], async () => {
    return answerApi(await save(request, { mode: 'create' }, API_CLIENT), texts);
  });

/**
 * PUT and DELETE /api/admin/<items>/{id}: the admin guard, the method, the id (404
 * `<what> not found`, also for a non-numeric id); DELETE answers 204 (the model deletes the
 * files); PUT runs the save flow, or `json` for a JSON body where the entity takes one.
 */
export const itemAction = <R>(
  request: Request,
  idParam: string | undefined,
  item: {
    what: string;
    remove: (id: number) => Promise<R | null>;
    save: SaveFlow<R>;
    json?: (id: number) => Promise<Response>;
  },
) =>
  adminApiAction(request, ITEM_METHODS, async () => {
    const id = requireId(idParam, item.what);
    const notFound = `${item.what} not found`;
    if (request.method.toUpperCase() === 'DELETE') {
      return (await item.remove(id)) ? noContent() : apiError(404, notFound);
    }
    if (item.json && isJsonRequest(request)) return item.json(id);
    return answerApi(await item.save(request, { mode: 'update', id }, API_CLIENT), { notFound });
  });

export const itemLoader = (request: Request) => adminMethodNotAllowed(request, ITEM_METHODS);
