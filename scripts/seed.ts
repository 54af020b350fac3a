// `npm run seed`: seed the demo content into an empty database (same rules as the first start).
import { runScript } from './run-script';

await runScript(
  'seed',
  async () => {
    const { seedIfEmpty } = await import('../app/platform/seed.server');
    const { ensureUploadFolders } = await import('../app/platform/startup.server');
    await ensureUploadFolders();
    const result = await seedIfEmpty({ force: process.argv.includes('--force') });
    return result.seeded
      ? `Seeded: ${result.summary}`
      : 'The database already has its demo content; nothing to do.';
  },
  { db: true },
);
