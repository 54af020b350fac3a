// `npm run bench:mail`: sends a newsletter to 10,000 subscribers (BENCH_MAIL_COUNT) through
// the app's own queue and worker to a local SMTP sink in another process. The database is the
// embedded store, durable in a temporary folder, run as its own server process as MongoDB is
// in production (BENCH_MAIL_STORE=inline runs it inside the app process instead, as a
// zero-setup install does). Prints messages per second and how much the resident memory of
// the app process (and of the store) grew during the send. Figures, not a test.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const COUNT = Number(process.env.BENCH_MAIL_COUNT ?? 10_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-bench-mail-'));
process.env.DATA_DIR = path.join(dir, 'data');
process.env.UPLOADS_DIR = path.join(dir, 'uploads');
const INLINE = process.env.BENCH_MAIL_STORE === 'inline';
process.env.SEED = 'false';
process.env.LOG_LEVEL = 'silent';
process.env.SESSION_SECRET = 'bench-mail-secret-0123456789';

const sinkProcess = spawn(
  process.execPath,
  ['--import', 'tsx', 'tests/helpers/smtp-sink-process.ts'],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
const lines = readline.createInterface({ input: sinkProcess.stdout! });
const replies: ((value: Record<string, number>) => void)[] = [];
lines.on('line', (line) => replies.shift()?.(JSON.parse(line) as Record<string, number>));
const nextReply = () => new Promise<Record<string, number>>((resolve) => replies.push(resolve));
const { port } = await nextReply();
const sinkCount = async () => {
  const reply = nextReply();
  sinkProcess.stdin!.write('count\n');
  return (await reply).count;
};

/** VmRSS of another process, in bytes (Linux). */
const rssOf = (pid: number | undefined) => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};

let storeProcess: ReturnType<typeof spawn> | null = null;
if (INLINE) {
  process.env.MONGODB_URI = '';
} else {
  const storePort = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
  storeProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'embedded-mongo/cli.ts',
      '--port',
      String(storePort),
      '--data-dir',
      path.join(dir, 'db'),
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const uri = await new Promise<string>((resolve) =>
    readline.createInterface({ input: storeProcess!.stdout! }).once('line', resolve),
  );
  const parsed = new URL(uri);
  parsed.pathname = '/nightshore';
  process.env.MONGODB_URI = parsed.toString();
}

const { connectDb, disconnectDb } = await import('../app/platform/db.server');
const { Subscriber } = await import('../app/models/subscriber.server');
const { createNewsletterIssue } = await import('../app/models/newsletter.server');
const { queueIsEmpty } = await import('../app/models/mail-delivery.server');
const { createMailWorker } = await import('../app/mail/worker.server');
const { createMailTransport } = await import('../app/mail/transport.server');
const { env } = await import('../app/platform/env.server');

await connectDb();
const now = Date.now();
for (let i = 0; i < COUNT; i += 1000) {
  await Subscriber.insertMany(
    Array.from({ length: Math.min(1000, COUNT - i) }, (_, j) => {
      const n = i + j + 1;
      return {
        id: n,
        name: `Fan ${n}`,
        email: `fan${n}@example.com`,
        emailLower: `fan${n}@example.com`,
        status: 'active',
        createdAt: new Date(now + n),
      };
    }),
  );
}

const enqueueStart = performance.now();
const issue = await createNewsletterIssue({
  subject: 'Benchmark issue',
  content: 'A newsletter of ordinary length.\n\n'.repeat(20),
  delivery: 'smtp',
  baseUrl: 'https://nightshore.example',
});
const enqueueMs = performance.now() - enqueueStart;

global.gc?.();
const before = process.memoryUsage();
const rssBefore = before.rss;
let rssPeak = rssBefore;
let heapPeak = before.heapUsed;
const storeBefore = rssOf(storeProcess?.pid);
let storePeak = storeBefore;
const sampler = setInterval(() => {
  const now = process.memoryUsage();
  rssPeak = Math.max(rssPeak, now.rss);
  heapPeak = Math.max(heapPeak, now.heapUsed);
  storePeak = Math.max(storePeak, rssOf(storeProcess?.pid));
}, 100);

const worker = createMailWorker({
  transport: createMailTransport({ smtpUrl: `smtp://127.0.0.1:${port}` }),
  log: (m) => console.error(m),
});
const sendStart = performance.now();
const cpu0 = process.cpuUsage();
worker.start();
while (!(await queueIsEmpty())) await new Promise((r) => setTimeout(r, 100));
const sendMs = performance.now() - sendStart;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
await worker.stop();
global.gc?.();
const after = process.memoryUsage();
const received = await sinkCount();

console.log(
  [
    `bench:mail — ${COUNT.toLocaleString('en-US')} recipients, embedded store (durable, ${INLINE ? 'inside the app process' : 'its own process'}), SMTP sink in another process`,
    `  Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `  MAIL_CONCURRENCY ${env.MAIL_CONCURRENCY}`,
    `  queueing ${COUNT} deliveries: ${enqueueMs.toFixed(0)} ms`,
    `  sending: ${(sendMs / 1000).toFixed(2)} s, ${((COUNT * 1000) / sendMs).toFixed(0)} messages/s (app CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s)`,
    `  received by the sink: ${received} (issue ${issue.id})`,
    `  app resident memory: ${(rssBefore / 2 ** 20).toFixed(0)} MB before, peak ${(rssPeak / 2 ** 20).toFixed(0)} MB (+${((rssPeak - rssBefore) / 2 ** 20).toFixed(0)} MB)`,
    ...(storeProcess
      ? [
          `  store resident memory: ${(storeBefore / 2 ** 20).toFixed(0)} MB before, peak ${(storePeak / 2 ** 20).toFixed(0)} MB (+${((storePeak - storeBefore) / 2 ** 20).toFixed(0)} MB)`,
        ]
      : []),
    `  app JS heap used: ${(before.heapUsed / 2 ** 20).toFixed(0)} MB before, peak ${(heapPeak / 2 ** 20).toFixed(0)} MB (+${((heapPeak - before.heapUsed) / 2 ** 20).toFixed(0)} MB), ${(after.heapUsed / 2 ** 20).toFixed(0)} MB after a full GC (+${((after.heapUsed - before.heapUsed) / 2 ** 20).toFixed(0)} MB retained)`,
  ].join('\n'),
);
sinkProcess.stdin!.end();
await disconnectDb();
storeProcess?.kill('SIGTERM');
if (storeProcess) await new Promise((resolve) => storeProcess!.once('exit', resolve));
fs.rmSync(dir, { recursive: true, force: true });
if (received !== COUNT) {
  console.error(`expected ${COUNT} messages at the sink, got ${received}`);
  process.exit(1);
}
process.exit(0);
