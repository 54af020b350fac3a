import { STATUS_CODES } from 'node:http';

import { isDatabaseUnavailable } from './db-errors.server';
import { logError } from './request-tracking.server';

/**
 * The one way a page fails (decision 033): a loader or an action throws one of these
 * Responses and the route's `GeneralErrorBoundary` renders it, with a handler per status and
 * the request id. Their text is for the visitor (or the admin), never an exception's. The JSON
 * surface answers with `apiError` (app/api/api.server.ts) instead.
 */

/** The statuses a failure or a refusal answers with, by name. */
export const HTTP_STATUS = {
  badRequest: 400,
  notFound: 404,
  gone: 410,
  internalServerError: 500,
  serviceUnavailable: 503,
} as const;

/** What a form says when its action failed on our side (the cause is logged, never shown). */
export const SERVER_FAILURE_MESSAGE =
  'Something went wrong on our side. Please try again in a moment.';

/**
 * An action's failure on our side (decision 050): the exception is logged with the request id
 * (its stack in the log), and the text to show instead of it is returned: always
 * `SERVER_FAILURE_MESSAGE`, never the exception's message. For a failure held as a value (the
 * save flow's `failed` result); an action's own work goes through `catchServerFailure`.
 */
export function reportServerFailure(
  error: unknown,
  request: Request | null,
  context: string,
): string {
  logError(error, request, context);
  return SERVER_FAILURE_MESSAGE;
}

/**
 * The one failure policy of the page actions (decision 050; `/api` has `handleApi`): runs the
 * action's work; an exception that is not a thrown Response is logged with the request id and
 * answered by `answer(SERVER_FAILURE_MESSAGE)` (a form error, an error toast). Thrown Responses
 * (a redirect, a 404, an admin check) pass through. Expected failures (validation, "not found",
 * the SPEC's texts) are answers of the work itself, with their own messages.
 *
 * @example
 * return catchServerFailure(
 *   request,
 *   'creating a show failed',
 *   async () => redirectWithToast('/admin/shows', saved(await createShow(value))),
 *   (message) => data(submission.reply({ formErrors: [message] }), { status: 500 }),
 * );
 */
export async function catchServerFailure<Done, Failed>(
  request: Request,
  context: string,
  work: () => Promise<Done>,
  answer: (message: string) => Failed | Promise<Failed>,
): Promise<Done | Failed> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Response) throw error;
    return answer(reportServerFailure(error, request, context));
  }
}

/** The 503 of a loader whose database cannot answer (`loadOr503`). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not answering right now.';

/** A plain-text error answer; `init` may add headers (a resource route's Cache-Control). */
function errorResponse(status: number, message: string, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'text/plain; charset=utf-8');
  return new Response(message, {
    ...init,
    status,
    statusText: STATUS_CODES[status] ?? '',
    headers,
  });
}

export function notFound(message = 'Not Found', init?: Omit<ResponseInit, 'status'>): Response {
  return errorResponse(HTTP_STATUS.notFound, message, init);
}

export function badRequest(message = 'Bad Request', init?: Omit<ResponseInit, 'status'>): Response {
  return errorResponse(HTTP_STATUS.badRequest, message, init);
}

export function serviceUnavailable(
  message = 'Service Unavailable',
  init?: Omit<ResponseInit, 'status'>,
): Response {
  return errorResponse(HTTP_STATUS.serviceUnavailable, message, init);
}

/**
 * Throws a Response (400 unless `init.status` says otherwise) with the message when the
 * condition is falsy; after it, TypeScript knows the condition holds. The message may be a
 * function, to build it only on failure.
 *
 * @example invariantResponse(days !== null, 'days must be 7, 30 or 90')
 */
export function invariantResponse(
  condition: unknown,
  message: string | (() => string),
  init?: ResponseInit,
): asserts condition {
  if (condition) return;
  const text = typeof message === 'function' ? message() : message;
  throw errorResponse(init?.status ?? HTTP_STATUS.badRequest, text, init);
}

/**
 * Runs a page loader's work; when its database cannot answer (down, unreachable, timed out:
 * `isDatabaseUnavailable`), throws a 503 instead of failing with a 500: the cause is logged
 * with the request id, and the route's boundary says the page could not be loaded. Anything
 * else (a redirect, a 404, a bug) passes through unchanged.
 *
 * It runs inside `export async function loader` rather than wrapping it: a top-level
 * `export const loader = loadOr503(…)` is a call the browser build keeps, and there this
 * `.server` module is empty.
 *
 * @example return loadOr503(request, async () => ({ shows: await listShows() }));
 */
export async function loadOr503<Result>(
  request: Request,
  load: () => Promise<Result>,
): Promise<Result> {
  try {
    return await load();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    logError(error, request, 'database unavailable');
    throw serviceUnavailable(DATABASE_UNAVAILABLE_MESSAGE);
  }
}
