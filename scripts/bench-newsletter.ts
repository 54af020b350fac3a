import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startEmbeddedMongo } from '@night-shore/embedded-mongo';

import { flag, numberOption } from './bench-args';

/**
 * `npm run bench:newsletter [-- --subscribers N] [--external]`: the back office's subscriber
 * tab (`loadSubscribersTab`, what `/admin/newsletter` loads) at issue 37's 10× list (500,000
 * subscribers), on the embedded store: in this process (the default set-up) or, with
 * `--external`, in a process of its own as `npm run db` runs it (the app through its URI).
 *
 * The list: copies of the demo's subscribers (`local+n@domain`, as bench:catalogue grows it), one
 * in ten unsubscribed. Each row is a fresh question (a new term or page each call, so no read
 * cache answers it): the median of 5 calls and the slowest, in ms of wall time and of this
 * process's CPU time (the store runs in it: on a busy machine the CPU time is what an idle one's
 * wall time would be). Terms: `common` matches
 * one subscriber in 12 (a demo name), `rare` one address (its copy number), `none` nothing.
 * Prints the load average with the figures (the machine is shared).
 */

const N = numberOption('--subscribers', 500_000);
const EXTERNAL = flag('--external');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-newsletter-'));
process.env.DATA_DIR = path.join(tmp, 'data');
process.env.UPLOADS_DIR = path.join(tmp, 'uploads');
process.env.SESSION_SECRET ??= 'bench-session-secret-0123456789';
process.env.LOG_LEVEL = 'silent';

const NAMES = [
  'Priya',
  'Marcus',
  'Elena',
  'Jonah',
  'Sofia',
  'Theo',
  'Amara',
  'Lukas',
  'Nadia',
  'Omar',
  'Hana',
  'Felix',
];

async function main() {
  let uri: string;
  let stopStore: () => Promise<void>;
  if (EXTERNAL) {
    const { spawn } = await import('node:child_process');
    const child = spawn('npx', ['tsx', 'embedded-mongo/cli.ts', '--port', '0', '--memory'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    uri = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /mongodb:\/\/\S+/.exec(out);
        if (m) resolve(m[0]);
      });
      child.on('exit', (code) => reject(new Error(`store exited ${code}`)));
    });
    stopStore = async () => {
      child.kill('SIGTERM');
    };
  } else {
    const store = await startEmbeddedMongo();
    uri = store.uri;
    stopStore = () => store.stop();
  }
  const { connectDb, disconnectDb } = await import('../app/platform/db.server');
  await connectDb({ uri, dbName: 'bench' });
  const { Subscriber } = await import('../app/models/subscriber.server');
  const { loadSubscribersTab } = await import('../app/routes/admin+/newsletter/subscribers.server');
  await Subscriber.init();
  const started = performance.now();
  const now = Date.now();
  for (let from = 0; from < N; from += 5000) {
    const batch = [];
    for (let i = from; i < Math.min(N, from + 5000); i++) {
      const name = NAMES[i % NAMES.length];
      const email = `${name.toLowerCase()}+${i}@example.com`;
      const createdAt = new Date(now - (N - i) * 60_000);
      batch.push({
        id: i + 1,
        name: `${name} Listener`,
        email,
        emailLower: email,
        status: i % 10 === 3 ? 'unsubscribed' : 'active',
        createdAt,
        updatedAt: createdAt,
      });
    }
    await Subscriber.collection.insertMany(batch, { ordered: false });
  }
  console.log(
    `${N} subscribers on the embedded store (${EXTERNAL ? 'its own process' : 'in this process'}), inserted in ${((performance.now() - started) / 1000).toFixed(0)} s; Node ${process.version}`,
  );
  let call = 0;
  const row = async (
    label: string,
    query: (k: number) => { q?: string; page?: number; status?: 'active' | null },
  ) => {
    const times: number[] = [];
    const cpus: number[] = [];
    let shown = '';
    for (let k = 0; k < 5; k++) {
      const { q = '', page = 1, status = null } = query(k + call);
      const t = performance.now();
      const cpu = process.cpuUsage();
      const tab = await loadSubscribersTab({ q, status, page });
      times.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      cpus.push((used.user + used.system) / 1000);
      shown = `${tab.activeMatches} subscribers${q ? `, filtered from ${tab.totalActive}` : ''}; page ${tab.list.page} of ${tab.list.pageCount}, ${tab.list.items.length} rows`;
    }
    call += 5;
    times.sort((a, b) => a - b);
    cpus.sort((a, b) => a - b);
    console.log(
      `${label.padEnd(40)} ${times[2].toFixed(0).padStart(5)} ms (max ${times[4].toFixed(0).padStart(5)})  CPU ${cpus[2].toFixed(0).padStart(4)} ms (max ${cpus[4].toFixed(0).padStart(4)})  load ${os.loadavg()[0].toFixed(1).padStart(4)}  ${shown}`,
    );
  };
  // Warm: the first read builds index entries the later ones use.
  await loadSubscribersTab({ q: '', status: null, page: 1 });
  await row('open (page 1)', () => ({}));
  await row('page N (3, 100, 5000, …)', (k) => ({ page: [3, 100, 5000, 9000, 2][k % 5] }));
  await row('search common (a demo name, page 1)', (k) => ({ q: NAMES[k % NAMES.length] }));
  await row('search common, page 40', (k) => ({ q: NAMES[k % NAMES.length], page: 40 }));
  await row('search rare (one address)', (k) => ({ q: `+${(k * 7919) % N}@` }));
  await row('search rare, status active', (k) => ({
    q: `+${(k * 104729) % N}@`,
    status: 'active',
  }));
  await row('search with 111 matches (page 1)', (k) => ({ q: `+${1000 + k}` }));
  await row('search with 111 matches, page 2', (k) => ({ q: `+${1000 + k}`, page: 2 }));
  await row('search with 1,111 matches (page 1)', (k) => ({ q: `+${200 + k}` }));
  await row('search none', (k) => ({ q: `nobody-${k}` }));
  await disconnectDb();
  await stopStore();
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
