/**
 * A media job's own process (started by ./run-in-thread.server.ts with `child_process.fork`;
 * the name is from when it was a worker thread, decision 046): its job comes as its one
 * argument (JSON); it runs one `processAudio` call, posts its result or its error back, then
 * ends. On the way it posts the audio's length (the parent's time limit grows with it) and its
 * RSS (what the parent watches where it cannot read /proc).
 *
 * Its parent gone (a crash, a SIGKILL), the IPC channel closes: the job stops between two
 * reads and leaves no half-written output behind.
 */
import fs from 'node:fs';

import type { JobMessage } from './run-in-thread.server';
import { processAudio, type ProcessResult } from './transcode.server';

export type ThreadInput = { input: string; output: string | null };
type ThreadOutput = JobMessage<ProcessResult>;

/** How often the process reports its RSS (between two reads at the latest). */
const MEMORY_REPORT_MS = 100;

const send = (message: ThreadOutput): Promise<void> =>
  new Promise((resolve) => {
    if (!process.connected) resolve();
    else process.send!(message, undefined, {}, () => resolve());
  });

async function run({ input, output }: ThreadInput): Promise<void> {
  const orphaned = () => {
    if (output) fs.rmSync(output, { force: true });
    process.exit(1);
  };
  process.once('disconnect', orphaned);
  // The parent may have gone while this process was starting (before anyone listened).
  if (!process.connected) orphaned();
  const memory = setInterval(
    () => void send({ type: 'memory', rssBytes: process.memoryUsage.rss() }),
    MEMORY_REPORT_MS,
  );
  let reply: ThreadOutput;
  try {
    const result = await processAudio(input, output, {
      onDuration: (seconds) => void send({ type: 'duration', seconds }),
    });
    reply = { type: 'result', result };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    reply = {
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
      // The file itself cannot be read: trying again changes nothing.
      permanent: name === 'WavError' || name === 'MediaError',
    };
  }
  clearInterval(memory);
  await send(reply);
  process.exit(0);
}

void run(JSON.parse(process.argv[2] ?? '{}') as ThreadInput);
