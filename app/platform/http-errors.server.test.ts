import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';

import { isDatabaseUnavailable } from './db-errors.server';
import {
  badRequest,
  catchServerFailure,
  DATABASE_UNAVAILABLE_MESSAGE,
  HTTP_STATUS,
  invariantResponse,
  loadOr503,
  notFound,
  reportServerFailure,
  SERVER_FAILURE_MESSAGE,
  serviceUnavailable,
} from './http-errors.server';

const { mongo } = mongoose;

/** What a function throws (a test fails when it throws nothing). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('notFound, badRequest, serviceUnavailable', () => {
  it('are plain-text Responses with their status, status text and message', async () => {
    for (const [response, status, statusText, text] of [
      [notFound(), 404, 'Not Found', 'Not Found'],
      [notFound('Show not found'), 404, 'Not Found', 'Show not found'],
      [badRequest(), 400, 'Bad Request', 'Bad Request'],
      [serviceUnavailable('Try again'), 503, 'Service Unavailable', 'Try again'],
    ] as const) {
      expect(response.status).toBe(status);
      expect(response.statusText).toBe(statusText);
      expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe(text);
    }
  });

  it('keep the headers a resource route adds', () => {
    const response = notFound('Show not found', { headers: { 'Cache-Control': 'no-store' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
  });
});

describe('invariantResponse', () => {
  it('does nothing when the condition holds, and narrows its type', () => {
    const value: string | null = 'seven' as string | null;
    invariantResponse(value, 'missing');
    // Compiles only because `value` is a string after the assertion.
    expect(value.length).toBe(5);
  });

  it('throws a 400 with the message when the condition is falsy', async () => {
    for (const falsy of [false, null, undefined, 0, '']) {
      const error = thrown(() => invariantResponse(falsy, 'days must be 7, 30 or 90'));
      expect(error).toBeInstanceOf(Response);
      const response = error as Response;
      expect(response.status).toBe(HTTP_STATUS.badRequest);
      expect(await response.text()).toBe('days must be 7, 30 or 90');
    }
  });

  it('takes the status and headers from init, and builds a lazy message only on failure', async () => {
    let built = 0;
    const message = () => {
      built += 1;
      return 'Show 7 not found';
    };
    invariantResponse(true, message, { status: HTTP_STATUS.notFound });
    expect(built).toBe(0);
    const response = thrown(() =>
      invariantResponse(false, message, {
        status: HTTP_STATUS.notFound,
        headers: { 'Cache-Control': 'no-store' },
      }),
    ) as Response;
    expect(built).toBe(1);
    expect(response.status).toBe(404);
    expect(response.statusText).toBe('Not Found');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.text()).toBe('Show 7 not found');
  });
});

describe('isDatabaseUnavailable', () => {
  const serverError = (code: number) => new mongo.MongoServerError({ code, errmsg: 'failed' });

  it('is true for a database that is down, unreachable or too slow', () => {
    expect(isDatabaseUnavailable(new mongo.MongoNetworkError('connection closed'))).toBe(true);
    expect(isDatabaseUnavailable(new mongo.MongoNetworkTimeoutError('timed out'))).toBe(true);
    expect(isDatabaseUnavailable(new mongo.MongoTopologyClosedError())).toBe(true);
    expect(isDatabaseUnavailable(new mongo.MongoNotConnectedError('not connected'))).toBe(true);
    expect(isDatabaseUnavailable(serverError(91))).toBe(true); // ShutdownInProgress
    expect(isDatabaseUnavailable(serverError(50))).toBe(true); // MaxTimeMSExpired
    expect(
      isDatabaseUnavailable(
        new mongoose.Error('Operation `shows.find()` buffering timed out after 10000ms'),
      ),
    ).toBe(true);
  });

  it('is false for a query the database refuses, and for anything else', () => {
    expect(isDatabaseUnavailable(serverError(11000))).toBe(false); // duplicate key
    expect(isDatabaseUnavailable(serverError(2))).toBe(false); // BadValue
    expect(isDatabaseUnavailable(new mongoose.Error.CastError('Number', 'x', 'id'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('undefined is not a function'))).toBe(false);
    expect(isDatabaseUnavailable(notFound())).toBe(false);
    expect(isDatabaseUnavailable('down')).toBe(false);
  });
});

describe('loadOr503', () => {
  const request = new Request('http://localhost/shows');

  it('answers what the loader loads', async () => {
    expect(await loadOr503(request, async () => ({ shows: [] }))).toEqual({ shows: [] });
  });

  it('turns a database that cannot answer into a 503', async () => {
    const error = await rejection(
      loadOr503(request, async () => {
        throw new mongo.MongoNetworkError('connection 3 to 127.0.0.1:27017 closed');
      }),
    );
    expect(error).toBeInstanceOf(Response);
    const response = error as Response;
    expect(response.status).toBe(503);
    // The visitor's text, never the driver's.
    expect(await response.text()).toBe(DATABASE_UNAVAILABLE_MESSAGE);
  });

  it('lets thrown Responses and other errors through unchanged', async () => {
    const missing = notFound('Show not found');
    const fail = (error: unknown) =>
      rejection(
        loadOr503(request, async () => {
          throw error;
        }),
      );
    expect(await fail(missing)).toBe(missing);
    const bug = new TypeError('undefined is not a function');
    expect(await fail(bug)).toBe(bug);
  });
});

describe('catchServerFailure', () => {
  const request = new Request('http://localhost/admin/shows/new', { method: 'POST' });
  const answer = (message: string) => ({ failed: message });

  it("gives the work's answer when it succeeds", async () => {
    expect(await catchServerFailure(request, 'x', async () => 'saved', answer)).toBe('saved');
  });

  it("answers an unexpected exception with the generic message, never the exception's", async () => {
    const failed = await catchServerFailure(
      request,
      'creating a show failed',
      () => Promise.reject(new Error('E11000 duplicate key error collection: shows')),
      answer,
    );
    expect(failed).toEqual({ failed: SERVER_FAILURE_MESSAGE });
    expect(reportServerFailure(new Error('secret detail'), request, 'x')).toBe(
      SERVER_FAILURE_MESSAGE,
    );
  });

  it('lets a thrown Response through (a redirect, a 404, the admin check)', async () => {
    const redirect = new Response(null, { status: 302, headers: { Location: '/auth' } });
    await expect(
      catchServerFailure(request, 'x', () => Promise.reject(redirect), answer),
    ).rejects.toBe(redirect);
  });
});
