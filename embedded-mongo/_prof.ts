import mongoose from 'mongoose';
import { startEmbeddedMongo } from '/work/main/embedded-mongo/index';
const store = await startEmbeddedMongo({ dataDir: process.argv[2] });
const conn = await mongoose.createConnection(store.uri, { dbName: 'bench' }).asPromise();
const T = conn.model(
  'T',
  new mongoose.Schema({ email: { type: String, unique: true }, plays: Number }),
);
await T.syncIndexes();
const docs = await T.insertMany(
  Array.from({ length: 10000 }, (_, i) => ({ email: 'u' + i, plays: i })),
);
for (const what of ['create', 'update', 'findOne']) {
  const t = performance.now();
  for (let i = 0; i < 2000; i++) {
    if (what === 'create') await T.create({ email: 'x' + i, plays: 1 });
    else if (what === 'update') await T.updateOne({ _id: docs[i]._id }, { $inc: { plays: 1 } });
    else await T.findOne({ email: 'u' + i }).lean();
  }
  console.log(what, Math.round(2000000 / (performance.now() - t)), 'ops/s');
}
await conn.close();
await store.stop();
