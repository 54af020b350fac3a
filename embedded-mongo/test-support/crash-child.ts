// Child process for the crash test: writes to a durable store in a loop and prints every
// acknowledged write; the parent kills it with SIGKILL at an arbitrary moment.
import { MongoClient } from 'mongodb';

import { startEmbeddedMongo } from '../index';

const dataDir = process.argv[2];
const store = await startEmbeddedMongo({ dataDir });
const client = new MongoClient(store.uri);
await client.connect();
const db = client.db('crash');
await db.collection('items').createIndex({ key: 1 }, { unique: true });
console.log(`READY ${store.uri}`);
const payload = 'x'.repeat(200);
for (let i = 0; ; i++) {
  await db.collection('items').insertOne({ _id: i as never, key: `k${i}`, payload, n: i });
  await db
    .collection('counters')
    .updateOne({ _id: 'c' as never }, { $inc: { seq: 1 }, $set: { last: i } }, { upsert: true });
  console.log(`ACK ${i}`);
}
