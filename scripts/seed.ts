// `npm run seed`: seed the demo content into an empty database (same rules as the first start).
import { connectDb, disconnectDb } from '../app/platform/db.server';
import { seedIfEmpty } from '../app/platform/seed.server';
import { ensureUploadFolders } from '../app/platform/startup.server';

await connectDb();
await ensureUploadFolders();
const result = await seedIfEmpty({ force: process.argv.includes('--force') });
console.log(
  result.seeded
    ? `Seeded: ${result.summary}`
    : 'The database already has its demo content; nothing to do.',
);
await disconnectDb();
