import path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { ProcessResult } from './transcode.server';
import type { ThreadInput, ThreadOutput } from './transcode-thread';

/**
 * Runs `processAudio` in a worker thread, so decoding and encoding never block the request
 * path. The thread loads app/media/transcode-thread.ts through tsx (a dependency: the server
 * itself runs with `--import tsx`), found from the app's root: the working directory of
 * `npm start`, the Docker image and the tests.
 */
export class ThreadFailure extends Error {
  override name = 'ThreadFailure';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** The entry, a plain module that registers tsx and imports ./transcode-thread.ts. */
const entry = () => path.join(process.cwd(), 'app', 'media', 'transcode-thread-boot.mjs');

export type ThreadRun = { result: Promise<ProcessResult>; terminate: () => Promise<void> };

export function processAudioInThread(input: string, output: string | null): ThreadRun {
  const worker = new Worker(entry(), {
    workerData: { input, output } satisfies ThreadInput,
    // The job's own heap: bounded by the read size, not by the file.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  let settled = false;
  const result = new Promise<ProcessResult>((resolve, reject) => {
    worker.once('message', (reply: ThreadOutput) => {
      settled = true;
      if (reply.ok) resolve(reply.result);
      else reject(new ThreadFailure(reply.message, reply.permanent));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(new ThreadFailure(error.message, false));
    });
    worker.once('exit', (code) => {
      if (!settled)
        reject(new ThreadFailure(`The media thread stopped (exit code ${code})`, false));
    });
  });
  return {
    result,
    terminate: async () => {
      await worker.terminate();
    },
  };
}
