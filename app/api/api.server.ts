import { json } from '@remix-run/node';
import type { ZodType, ZodTypeDef } from 'zod';
import { parseId } from '~/models/model-helpers.server';
import type { UserJSON } from '~/types/entities';
import type { FieldErrors } from '~/types/forms';
import { requireAdminApi } from '~/auth/auth.server';
import { env } from '~/server/env.server';

/**
 * Helpers shared by the /api resource routes (app/routes/api.*.ts): JSON errors,
 * bounded body reading with zod validation, the same-origin check for mutations and a
 * wrapper that turns unexpected failures into a JSON 500 without internals.
 * The reference of the API is docs/api.md.
 */

export type ApiErrorBody = { error: string; fields?: FieldErrors };

/** Default bound for JSON and form bodies (file uploads have their own limits). */
export const JSON_BODY_LIMIT = 100 * 1024;

const NO_STORE = { 'Cache-Control': 'no-store' };

/** A JSON answer; never cached by browsers or proxies (the data changes under the admin). */
export function apiJson<T>(data: T, init: number | ResponseInit = 200): Response {
  const base: ResponseInit = typeof init === 'number' ? { status: init } : init;
  const headers = new Headers(base.headers);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', NO_STORE['Cache-Control']);
  return json(data, { ...base, headers });
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
  return apiError(405, 'Method not allowed', undefined, { Allow: allowed.join(', ') });
}

/** Throws a JSON 405 unless the request uses one of these methods. */
export function requireMethod(request: Request, allowed: readonly string[]): void {
  if (!allowed.includes(request.method.toUpperCase())) throw methodNotAllowed(allowed);
}

// ---------------------------------------------------------------------------------------
// Same-origin check
// ---------------------------------------------------------------------------------------

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Mutations must come from this site (on top of SameSite cookies). When the browser says
 * where the request comes from (`Origin`, else `Sec-Fetch-Site`), anything but this
 * site is a 403. Clients that send neither (scripts, apps) pass: they carry no ambient
 * cookies of a victim's browser.
 */
export function requireSameOrigin(request: Request): void {
  const origin = request.headers.get('Origin');
  if (origin !== null) {
    const allowed = new Set<string>();
    const requestOrigin = originOf(request.url);
    if (requestOrigin) allowed.add(requestOrigin);
    const siteOrigin = originOf(env.SITE_URL);
    if (siteOrigin) allowed.add(siteOrigin);
    // Behind a TLS-terminating proxy the server may see http:// while the browser says
    // https://: the host must still match the Host header the browser sent.
    const host = request.headers.get('X-Forwarded-Host') ?? request.headers.get('Host');
    let originHost: string | null = null;
    try {
      originHost = origin === 'null' ? null : new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (allowed.has(origin) || (originHost !== null && host !== null && originHost === host))
      return;
    throw apiError(403, 'Cross-origin request refused');
  }
  const site = request.headers.get('Sec-Fetch-Site');
  if (site === 'cross-site' || site === 'same-site') {
    throw apiError(403, 'Cross-origin request refused');
  }
}

/**
 * /api/admin/*: the session guard first (401 anonymous, 403 non-admin), before the method
 * and the body are looked at; then, for anything but GET/HEAD, the same-origin check.
 */
export async function requireAdminRequest(request: Request): Promise<UserJSON> {
  const user = await requireAdminApi(request);
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') requireSameOrigin(request);
  return user;
}

// ---------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------

/** The media type of a request, lower case, without parameters ('' when absent). */
export function mediaType(request: Request): string {
  return (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export const isJsonRequest = (request: Request) => {
  const type = mediaType(request);
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
};

export const isFormRequest = (request: Request) => {
  const type = mediaType(request);
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
};

/** Read the whole body, refusing (413) more than `limit` bytes, streamed. */
export async function readBodyBytes(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get('Content-Length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await reader.read();
    } catch {
      throw apiError(400, 'The request body could not be read');
    }
    if (result.done) break;
    size += result.value.byteLength;
    if (size > limit) {
      const drained = await drainReader(reader, DRAIN_LIMIT);
      throw tooLarge(limit, !drained);
    }
    chunks.push(result.value);
  }
  const out = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(limit: number, closeConnection = false): Response {
  return apiError(
    413,
    `Request body too large (limit ${Math.round(limit / 1024)} KB)`,
    undefined,
    closeConnection ? { Connection: 'close' } : undefined,
  );
}

/** Read and drop up to `budget` more bytes; true when the body ended within it. */
async function drainReader(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  budget: number,
): Promise<boolean> {
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      size += value.byteLength;
      if (size > budget) {
        // Not cancel(): that destroys the socket before the answer is written (the client
        // sees a reset, not the 413). The answer says Connection: close instead.
        reader.releaseLock();
        return false;
      }
    }
  } catch {
    return false;
  }
}

/** Parse a JSON body (415 for another content type, 413 over the limit, 400 malformed). */
export async function readJsonValue(
  request: Request,
  options: { limit?: number } = {},
): Promise<unknown> {
  if (!isJsonRequest(request)) throw apiError(415, 'Content-Type must be application/json');
  const bytes = await readBodyBytes(request, options.limit ?? JSON_BODY_LIMIT);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.trim() === '') throw apiError(400, 'Malformed JSON body');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw apiError(400, 'Malformed JSON body');
  }
}

/**
 * A form body (urlencoded or multipart, without files) as a plain object; repeated keys
 * keep their last value. 415 for other content types, 413 over the limit.
 */
export async function readFormValue(
  request: Request,
  options: { limit?: number } = {},
): Promise<Record<string, unknown>> {
  if (!isFormRequest(request)) throw apiError(415, 'Unsupported content type');
  const bytes = await readBodyBytes(request, options.limit ?? JSON_BODY_LIMIT);
  let form: FormData;
  try {
    form = await new Response(bytes, {
      headers: { 'Content-Type': request.headers.get('Content-Type') ?? '' },
    }).formData();
  } catch {
    throw apiError(400, 'Malformed form body');
  }
  const out: Record<string, unknown> = {};
  // Files stay File objects, so a schema expecting text refuses them.
  for (const [key, value] of form) out[key] = value;
  return out;
}

/** JSON or a form body, whichever the Content-Type says (415 for anything else). */
export async function readJsonOrFormValue(
  request: Request,
  options: { limit?: number } = {},
): Promise<unknown> {
  if (isJsonRequest(request)) return readJsonValue(request, options);
  if (isFormRequest(request)) return readFormValue(request, options);
  throw apiError(415, 'Content-Type must be application/json or a form');
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
  options: { limit?: number } = {},
): Promise<Output> {
  return validate(schema, await readJsonValue(request, options));
}

/**
 * The validated credentials as the urlencoded form request the remix-auth form
 * strategies read, so /api and the /auth page share one login and register path.
 */
export function credentialsRequest(
  request: Request,
  credentials: { username: string; password: string },
): Request {
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded' });
  const cookie = request.headers.get('Cookie');
  if (cookie) headers.set('Cookie', cookie);
  return new Request(request.url, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ username: credentials.username, password: credentials.password }),
  });
}

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
      console.error('[api] unexpected error', error);
      response = apiError(500, 'Internal server error');
    }
  }
  return finishBody(request, response);
}

/** Bodies up to this size are read and dropped when the answer came before reading them. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * An answer given before the body was read (401, 403, 404, 413, 415…) must still consume
 * it: an unread request body stalls the keep-alive connection for the client's next
 * request. Small bodies are drained; a bigger one is abandoned and the connection closed.
 */
async function finishBody(request: Request, response: Response): Promise<Response> {
  if (request.bodyUsed || !request.body || request.body.locked) return response;
  // A declared body bigger than the budget is not waited for (the client may send slowly).
  const declared = Number(request.headers.get('Content-Length') ?? '');
  const small = !(Number.isFinite(declared) && declared > DRAIN_LIMIT);
  if (small && (await drainReader(request.body.getReader(), DRAIN_LIMIT))) return response;
  const headers = new Headers(response.headers);
  headers.set('Connection', 'close');
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** Parse a numeric id route param, or throw a JSON 404 (unknown ids and non-numbers alike). */
export function requireId(value: string | undefined, what: string): number {
  const id = parseId(value);
  if (id === null) throw apiError(404, `${what} not found`);
  return id;
}
