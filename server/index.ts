/**
 * The entry point: `node --import tsx server/index.ts [build/index.js]` (`npm start` runs it).
 *
 * With `WEB_CONCURRENCY=n` (n > 1) this process becomes the primary of n worker processes that
 * share the port (server/primary.ts); each worker, and the single process otherwise, is the
 * HTTP server of server/http-server.ts.
 */
import cluster from 'node:cluster';
import { parseWebConcurrency } from './concurrency';

const concurrency = parseWebConcurrency(process.env.WEB_CONCURRENCY);
if (cluster.isPrimary && concurrency > 1) {
  const { runPrimary } = await import('./primary');
  await runPrimary(concurrency);
} else {
  await import('./http-server');
}
