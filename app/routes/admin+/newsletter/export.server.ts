import { streamSubscribers, type SubscriberQuery } from '~/models/subscriber-list.server';
import { csvCell } from '~/utils/csv';

import { subscriberQueryOf } from './subscribers.server';

/**
 * A streamed text body: each chunk is pulled from `chunks` when the client is ready for more,
 * so memory holds one batch of the cursor, never the list.
 */
function streamText(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** Lines of the subscriber CSV: a header, then one row per matching subscriber, newest first. */
async function* subscriberCsvLines(query: SubscriberQuery): AsyncGenerator<string> {
  yield ['Name', 'Email', 'Status', 'Date Added'].map(csvCell).join(',') + '\r\n';
  let batch = '';
  let rows = 0;
  for await (const s of streamSubscribers(query)) {
    batch += [s.name, s.email, s.status, s.createdAt].map(csvCell).join(',') + '\r\n';
    if (++rows % 500 === 0) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

/**
 * The active addresses among the matches, comma-separated (the copy-all button's text: the
 * addresses a newsletter goes to).
 */
async function* activeEmails(query: SubscriberQuery): AsyncGenerator<string> {
  let batch = '';
  let first = true;
  let rows = 0;
  const activeOnly = { ...query, status: 'active' as const };
  if (query.status && query.status !== 'active') return;
  for await (const s of streamSubscribers(activeOnly)) {
    batch += (first ? '' : ', ') + s.email;
    first = false;
    if (++rows % 500 === 0) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

const headers = (type: string, extra: Record<string, string> = {}) => ({
  'Content-Type': `${type}; charset=utf-8`,
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
  ...extra,
});

/** GET /admin/newsletter/subscribers.csv?q=&status=: the matching subscribers, streamed. */
export function subscriberCsvResponse(url: URL): Response {
  const query = subscriberQueryOf(url.searchParams);
  return new Response(streamText(subscriberCsvLines(query)), {
    headers: headers('text/csv', {
      'Content-Disposition': 'attachment; filename="night-shore-subscribers.csv"',
    }),
  });
}

/** GET /admin/newsletter/emails.txt?q=&status=: the matching active addresses, streamed. */
export function activeEmailsResponse(url: URL): Response {
  const query = subscriberQueryOf(url.searchParams);
  return new Response(streamText(activeEmails(query)), { headers: headers('text/plain') });
}
