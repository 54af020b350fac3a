import os from 'node:os';

import autocannon from 'autocannon';

import { buildIfNeeded, type ProdServer, startProdServer } from './prod-server';

/**
 * `npm run bench:workers`: does WEB_CONCURRENCY=2 serve more than one process on this machine?
 *
 * In one run, the production build is started with 1 worker, then with 2 (each on a fresh
 * temporary DATA_DIR with the demo content and the embedded store), and each is loaded with
 * autocannon on `/`, `/api/tracks` and a static file (`/favicon.svg`, the floor of the same
 * server). The order alternates (1, 2, 2, 1) so a machine that warms up or slows down during
 * the run does not favour one side. Printed: requests/s per set-up and the ratio 2 : 1.
 *
 * Mind that autocannon runs in this process, on the same machine: on 2 cores it takes much of
 * one, which the servers cannot use.
 *
 * Options: BENCH_DURATION (seconds per measurement, default 8), BENCH_CONNECTIONS (default 50).
 */
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TARGETS = ['/favicon.svg', '/', '/api/tracks'] as const;

type Sample = Record<(typeof TARGETS)[number], number[]>;

async function measure(server: ProdServer, sample: Sample): Promise<void> {
  for (const path of TARGETS) {
    const url = `${server.origin}${path}`;
    await autocannon({ url, connections: CONNECTIONS, duration: 2 }); // warm-up
    const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
    if (result.errors + result.timeouts + result.non2xx > 0)
      throw new Error(`${path}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    sample[path].push(result.requests.average);
  }
}

async function main() {
  buildIfNeeded();
  const samples: Record<1 | 2, Sample> = {
    1: { '/favicon.svg': [], '/': [], '/api/tracks': [] },
    2: { '/favicon.svg': [], '/': [], '/api/tracks': [] },
  };
  for (const workers of [1, 2, 2, 1] as const) {
    console.log(`WEB_CONCURRENCY=${workers}…`);
    const server = await startProdServer({ env: { WEB_CONCURRENCY: String(workers) } });
    try {
      await measure(server, samples[workers]);
    } finally {
      await server.stop();
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `\n${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ` +
      `${CONNECTIONS} connections, ${DURATION} s per measurement, two measurements each.\n`,
  );
  console.log('target          1 worker req/s   2 workers req/s   2 : 1');
  for (const path of TARGETS) {
    const one = mean(samples[1][path]);
    const two = mean(samples[2][path]);
    console.log(
      `${path.padEnd(16)}${one.toFixed(0).padStart(14)}${two.toFixed(0).padStart(18)}${(two / one).toFixed(2).padStart(8)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
