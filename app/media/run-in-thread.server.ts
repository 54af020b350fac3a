import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { ProcessResult } from './transcode.server';
import type { ThreadInput, ThreadOutput } from './transcode-thread';

/**
 * Runs `processAudio` in a worker thread, so decoding and encoding never block the request
 * path. The thread loads app/media/transcode-thread.ts through tsx (a dependency: the server
 * itself runs with `--import tsx`), found from this module's own location, never from the
 * working directory: see `threadEntry`.
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

const BOOT_FILE = path.join('app', 'media', 'transcode-thread-boot.mjs');

/**
 * The thread's entry, a plain module that registers tsx and imports ./transcode-thread.ts,
 * found from where this module is: under tsx (tests, scripts) that is app/media/ itself; in
 * the Remix build it is build/index.js (its code is bundled there), whose folder's parent is
 * the app's root (`npm start`, Docker). The nearest folder above that holds the boot file
 * is the root, wherever the process was started from (`cd /tmp && node …/server/index.ts`).
 */
export function threadEntry(from: string = import.meta.url): string {
  const start = path.dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, BOOT_FILE);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error(`The media thread's entry (${BOOT_FILE}) is not above ${start}`);
  }
}

let entry: string | undefined;

export type ThreadRun = { result: Promise<ProcessResult>; terminate: () => Promise<void> };

export function processAudioInThread(input: string, output: string | null): ThreadRun {
  const worker = new Worker((entry ??= threadEntry()), {
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
