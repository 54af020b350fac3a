// Test data for the admin e2e tests, written straight through the models (no public form,
// so no rate limit or honeypot in the way). Usage (through `runScript` in fixtures.ts):
//   RECORDS='[{"kind":"subscriber","name":"A","email":"a@example.com"}]' tsx tests/e2e/scripts/create-records.ts
// Prints one JSON line: the created records, in order.
import { z } from 'zod';

import { createContactMessage } from '../../../app/models/contact-message.server';
import { createShow } from '../../../app/models/show.server';
import { createSubscriber } from '../../../app/models/subscriber.server';
import { connectDb, disconnectDb } from '../../../app/platform/db.server';

const RecordSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('subscriber'), name: z.string(), email: z.string() }),
  z.object({
    kind: z.literal('message'),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
  }),
  z.object({
    kind: z.literal('show'),
    title: z.string(),
    venue: z.string(),
    location: z.string(),
    date: z.string(),
    time: z.string(),
    ticketUrl: z.string().optional(),
    description: z.string().optional(),
  }),
]);

const records = z.array(RecordSchema).parse(JSON.parse(process.env.RECORDS ?? '[]'));

await connectDb();
try {
  const created: unknown[] = [];
  for (const record of records) {
    if (record.kind === 'subscriber') created.push(await createSubscriber(record));
    else if (record.kind === 'message') created.push(await createContactMessage(record));
    else created.push(await createShow(record));
  }
  console.log(JSON.stringify(created));
} finally {
  await disconnectDb();
}
