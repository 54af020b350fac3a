import mongoose from 'mongoose';
import { startEmbeddedMongo } from '/work/main/embedded-mongo/index';
const store = await startEmbeddedMongo({});
const conn = await mongoose.createConnection(store.uri, { dbName: 'bench' }).asPromise();
const T = conn.model(
  'T',
  new mongoose.Schema(
    { email: { type: String, unique: true }, plays: Number },
    { timestamps: true },
  ),
);
await T.syncIndexes();
await T.insertMany(Array.from({ length: 10000 }, (_, i) => ({ email: 'u' + i, plays: i })));
const t = performance.now();
for (let i = 0; i < 5000; i++) await T.findOne({ email: 'u' + i }).lean();
console.log('findOne', Math.round(5000000 / (performance.now() - t)), 'ops/s');
await conn.close();
await store.stop();
