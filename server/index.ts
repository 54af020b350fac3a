/**
 * The entry point: `node build/server.js [build/index.js]` (`npm start` runs it: this module
 * compiled by scripts/build-server.mjs, decision 040), or `node --import tsx server/index.ts
 * [build/index.js]` from the sources (the tests' servers).
 *
 * With `WEB_CONCURRENCY=n` (n > 1) this process becomes the primary of n worker processes that
 * share the port (server/primary.ts); each worker, and the single process otherwise, is the
 * HTTP server of server/http-server.ts.
 */
import cluster from 'node:cluster';

import { parseWebConcurrency } from './concurrency';

// Before anything reads the configuration (the logger, the build): production unless told.
process.env.NODE_ENV ??= 'production';
const { logger } = await import('~/platform/logger.server');

const concurrency = parseWebConcurrency(process.env.WEB_CONCURRENCY);
if (concurrency === null) {
  logger.error(
    `WEB_CONCURRENCY must be a whole number from 1 to 64 (got "${process.env.WEB_CONCURRENCY}").`,
  );
  process.exit(1);
}
if (cluster.isPrimary && concurrency > 1) {
  const { runPrimary } = await import('./primary');
  await runPrimary(concurrency);
} else {
  await import('./http-server');
}
