import { json } from '@remix-run/node';
import type { ZodType, ZodTypeDef } from 'zod';

import { requireAdminApi } from '~/auth/auth.server';
import { parseId } from '~/models/model-helpers.server';
import { consumeRateLimit, retryAfterHeaders } from '~/platform/rate-limit.server';
import {
  bodyRefusal,
  finishUnreadBody,
  formRequest,
  isFormRequest,
  isJsonRequest,
  JSON_LIMIT,
  readForm,
  readJson,
} from '~/platform/request-body.server';
import { logError } from '~/platform/request-tracking.server';
import { HONEYPOT_FIELD } from '~/schemas/common';
import type { FieldErrors } from '~/types/forms';

/**
 * Helpers shared by the /api resource routes (app/routes/api+/): JSON errors,
 * bodies read through app/platform/request-body.server.ts with zod validation, the same-origin check for mutations and a
 * wrapper that turns unexpected failures into a JSON 500 without internals.
 * The reference of the API is docs/api.md.
 */

export type ApiErrorBody = { error: string; fields?: FieldErrors };

/** The bound of JSON and form bodies (file uploads have their own limits). */
const API_BODY_LIMIT = JSON_LIMIT;

const NO_STORE = { 'Cache-Control': 'no-store' };

/** A JSON answer; never cached by browsers or proxies (the data changes under the admin). */
export function apiJson<T>(data: T, init: number | ResponseInit = 200): Response {
  const base: ResponseInit = typeof init === 'number' ? { status: init } : init;
  const headers = new Headers(base.headers);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', NO_STORE['Cache-Control']);
  return json(data, { ...base, headers });
}

/** How much JSON a streamed answer gathers before handing it to the connection. */
const STREAM_CHUNK_CHARS = 16 * 1024;

/**
 * A JSON array streamed from `records` (a cursor, `streamRecords`): the same bytes as
 * `apiJson(all.map(toJSON))`, written as the cursor yields, so memory does not grow with the
 * collection (the server writes with backpressure; a client that goes away closes the cursor).
 *
 * The first record is read before the answer starts: a failure there is thrown, and `handleApi`
 * answers the usual JSON 500. A failure after the first byte cannot change the status any more:
 * it is logged and the answer is aborted without its closing `]` (the connection is cut before
 * the end of the chunked body), so a client sees a failed transfer, never a short list that
 * looks complete (decision 045).
 */
export async function apiJsonArrayStream<T>(
  request: Request,
  records: AsyncIterable<T>,
  toJSON: (record: T) => unknown,
  init: ResponseInit = {},
): Promise<Response> {
  const iterator = records[Symbol.asyncIterator]();
  const close = () => iterator.return?.().catch(() => undefined);
  let ahead: IteratorResult<T> | null;
  try {
    ahead = await iterator.next();
  } catch (error) {
    await close();
    throw error;
  }
  let count = 0;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = count === 0 && ahead !== null ? '[' : '';
      try {
        while (text.length < STREAM_CHUNK_CHARS) {
          const result = ahead ?? (await iterator.next());
          ahead = null;
          if (result.done) {
            controller.enqueue(encoder.encode(`${text}]`));
            controller.close();
            return;
          }
          text += (count > 0 ? ',' : '') + JSON.stringify(toJSON(result.value));
          count += 1;
        }
        controller.enqueue(encoder.encode(text));
      } catch (error) {
        logError(error, request, 'streamed /api list failed after its first byte');
        await close();
        controller.error(error);
      }
    },
    async cancel() {
      await close();
    },
  });
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', NO_STORE['Cache-Control']);
  return new Response(body, { status: 200, headers });
}

/** `{ error, fields? }` with the given status. */
export function apiError(
  status: number,
  message: string,
  fields?: FieldErrors,
  headers?: HeadersInit,
): Response {
  const body: ApiErrorBody =
    fields && Object.keys(fields).length > 0 ? { error: message, fields } : { error: message };
  return apiJson(body, { status, headers });
}

/** 204 No Content (deletes). */
export function noContent(headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set('Cache-Control', NO_STORE['Cache-Control']);
  return new Response(null, { status: 204, headers: h });
}

/** 405 with the Allow header. */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return apiError(405, 'Method Not Allowed', undefined, { Allow: allowed.join(', ') });
}

/** Throws a JSON 405 unless the request uses one of these methods. */
export function requireMethod(request: Request, allowed: readonly string[]): void {
  if (!allowed.includes(request.method.toUpperCase())) throw methodNotAllowed(allowed);
}

// ---------------------------------------------------------------------------------------
// Bodies (read by app/platform/request-body.server.ts; refusals become JSON in `handleApi`)
// ---------------------------------------------------------------------------------------

/** A JSON body of at most API_BODY_LIMIT (415, 413, 400 from the reader). */
export const readJsonValue = (request: Request): Promise<unknown> =>
  readJson(request, { maxBytes: API_BODY_LIMIT });

/**
 * A form body (urlencoded or multipart, without files) as a plain object; repeated keys
 * keep their last value.
 */
async function readFormValue(request: Request): Promise<Record<string, unknown>> {
  const form = await readForm(request, { maxBytes: API_BODY_LIMIT });
  const out: Record<string, unknown> = {};
  // Files stay File objects, so a schema expecting text refuses them.
  for (const [key, value] of form) out[key] = value;
  return out;
}

/** JSON or a form body, whichever the Content-Type says (415 for anything else). */
export async function readJsonOrFormValue(request: Request): Promise<unknown> {
  if (isJsonRequest(request)) return readJsonValue(request);
  if (isFormRequest(request)) return readFormValue(request);
  throw bodyRefusal.unsupportedType('application/json or a form');
}

type ZodIssueLike = { path: (string | number)[]; message: string };

/** zod issues → `{ field: [messages] }`; issues about the whole body go under '' . */
export function issuesToFields(issues: readonly ZodIssueLike[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '';
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/** Merge field error maps (messages of the same field are concatenated). */
export function mergeFieldErrors(...sets: FieldErrors[]): FieldErrors {
  const out: FieldErrors = {};
  for (const set of sets) {
    for (const [key, messages] of Object.entries(set))
      out[key] = [...(out[key] ?? []), ...messages];
  }
  return out;
}

/** A 400 answer for failed validation: the first message as `error`, all of them in `fields`. */
export function validationError(fields: FieldErrors, message?: string): Response {
  const { '': whole, ...named } = fields;
  const first = message ?? whole?.[0] ?? Object.values(named).flat()[0] ?? 'Invalid input';
  return apiError(400, first, named);
}

/** Validate any value with a schema, throwing a 400 with `fields` on failure. */
export function validate<Output, Input>(
  schema: ZodType<Output, ZodTypeDef, Input>,
  value: unknown,
): Output {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiError(400, 'The request body must be a JSON object');
  }
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(issuesToFields(result.error.issues));
  return result.data;
}

/** `readJsonValue` + `validate`. */
export async function readJsonBody<Output, Input>(
  request: Request,
  schema: ZodType<Output, ZodTypeDef, Input>,
): Promise<Output> {
  return validate(schema, await readJsonValue(request));
}

/**
 * The validated credentials as the urlencoded form request the remix-auth form
 * strategies read, so /api and the /auth page share one login and register path.
 */
export const credentialsRequest = (
  request: Request,
  credentials: { username: string; password: string },
) => formRequest(request, { username: credentials.username, password: credentials.password });

/** Throws a JSON 429 `{ error }` with Retry-After when the client is over its limit. */
export async function enforceRateLimit(
  kind: 'login' | 'register' | 'contact' | 'subscribe',
  request: Request,
  options: { username?: string } = {},
): Promise<void> {
  const decision = await consumeRateLimit(kind, request, options);
  if (!decision.ok) throw apiError(429, decision.message, undefined, retryAfterHeaders(decision));
}

/**
 * A POST-only route of the JSON surface (login, register, the public forms): anything but
 * POST is a 405; the body (JSON or a form) is validated against `schema` and handed to `run`
 * with the raw body (for the anti-spam field).
 */
export const postAction = <Input>(
  request: Request,
  schema: ZodType<Input, ZodTypeDef, unknown>,
  run: (input: Input, body: unknown) => Promise<Response>,
) =>
  handleApi(request, async () => {
    requireMethod(request, ['POST']);
    const body = await readJsonOrFormValue(request);
    return run(validate(schema, body), body);
  });

/** The loader of a POST-only route: every GET is a JSON 405. */
export const postOnlyLoader = (request: Request) =>
  handleApi(request, async () => methodNotAllowed(['POST']));

/**
 * POST of a public form on the JSON surface (/api/contact, /api/subscribe): the rate limit,
 * then `store` the input; when the anti-spam field is filled, `decoy` instead (a bot is
 * answered as a person would be; nothing is stored). 201 with the answer.
 */
export const publicFormAction = <Input>(
  request: Request,
  form: {
    schema: ZodType<Input, ZodTypeDef, unknown>;
    limit: 'contact' | 'subscribe';
    store: (input: Input) => Promise<unknown>;
    decoy: (input: Input) => Promise<unknown>;
  },
) =>
  postAction(request, form.schema, async (input, body) => {
    await enforceRateLimit(form.limit, request);
    const filled = honeypotFilled(body, HONEYPOT_FIELD);
    return apiJson(await (filled ? form.decoy(input) : form.store(input)), { status: 201 });
  });

/** True when the anti-spam field the forms hide from people was filled in. */
export function honeypotFilled(value: unknown, field: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = (value as Record<string, unknown>)[field];
  return typeof v === 'string' ? v.trim() !== '' : v !== undefined && v !== null && v !== false;
}

// ---------------------------------------------------------------------------------------
// The wrapper
// ---------------------------------------------------------------------------------------

function isResponse(value: unknown): value is Response {
  return value instanceof Response;
}

/**
 * Make sure an error answer thrown by a helper outside this module (an upload parser,
 * a guard) is JSON: a non-JSON error body becomes `{ error: <its text> }`.
 */
async function ensureJsonError(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const type = response.headers.get('Content-Type') ?? '';
  if (type.includes('json')) return response;
  const text = (await response.text().catch(() => '')).trim();
  const headers = new Headers(response.headers);
  headers.delete('Content-Type');
  headers.delete('Content-Length');
  return apiError(
    response.status,
    text || response.statusText || 'Request failed',
    undefined,
    headers,
  );
}

/**
 * Run an /api handler: thrown Responses are answers (made JSON when they are errors);
 * anything else is logged and answered with a 500 that reveals nothing.
 */
export async function handleApi(request: Request, run: () => Promise<Response>): Promise<Response> {
  let response: Response;
  try {
    response = await ensureJsonError(await run());
  } catch (error) {
    if (isResponse(error)) {
      response = await ensureJsonError(error);
    } else {
      logError(error, request, 'unexpected /api error');
      response = apiError(500, 'Internal server error');
    }
  }
  // An answer given before the body was read (401, 403, 404, 405…) still consumes it: an
  // unread body stalls the keep-alive connection for the client's next request.
  return finishUnreadBody(request, response);
}

/** Parse a numeric id route param, or throw a JSON 404 (unknown ids and non-numbers alike). */
export function requireId(value: string | undefined, what: string): number {
  const id = parseId(value);
  if (id === null) throw apiError(404, `${what} not found`);
  return id;
}

/**
 * An /api/admin route's action: the admin guard (401/403 first), then the methods it takes
 * (405 with `Allow` for any other), then `run`.
 */
export const adminApiAction = (
  request: Request,
  allowed: readonly string[],
  run: () => Promise<Response>,
) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    requireMethod(request, allowed);
    return run();
  });

/**
 * The loader or action of an /api/admin route for the methods it does not take: the admin
 * guard (401/403 first, so a stranger learns nothing of the route), then 405 with `Allow`.
 */
export const adminMethodNotAllowed = (request: Request, allowed: readonly string[]) =>
  handleApi(request, async () => {
    await requireAdminApi(request);
    return methodNotAllowed(allowed);
  });

/**
 * DELETE /api/admin/<items>/{id}: the admin guard, DELETE only, the id; 204, or 404
 * `<what> not found` for an unknown id (also a non-numeric one).
 */
export const adminDeleteAction = (
  request: Request,
  idParam: string | undefined,
  what: string,
  remove: (id: number) => Promise<unknown>,
) =>
  adminApiAction(request, ['DELETE'], async () => {
    const id = requireId(idParam, what);
    return (await remove(id)) ? noContent() : apiError(404, `${what} not found`);
  });
