/**
 * The worker thread of a media job (started by ./run-in-thread.server.ts through tsx): one
 * `processAudio` call, its result or its error posted back, then the thread ends.
 */
import { parentPort, workerData } from 'node:worker_threads';

import { processAudio } from './transcode.server';

export type ThreadInput = { input: string; output: string | null };
export type ThreadOutput =
  | { ok: true; result: Awaited<ReturnType<typeof processAudio>> }
  | { ok: false; message: string; permanent: boolean };

const { input, output } = workerData as ThreadInput;
let reply: ThreadOutput;
try {
  reply = { ok: true, result: await processAudio(input, output) };
} catch (error) {
  const name = error instanceof Error ? error.name : '';
  reply = {
    ok: false,
    message: error instanceof Error ? error.message : String(error),
    // The file itself cannot be read: trying again changes nothing.
    permanent: name === 'WavError' || name === 'MediaError',
  };
}
parentPort?.postMessage(reply);
