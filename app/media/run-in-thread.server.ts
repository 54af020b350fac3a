import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { ProcessResult } from './transcode.server';
import type { ThreadInput, ThreadOutput } from './transcode-thread';

/**
 * Runs `processAudio` in a worker thread, so decoding and encoding never block the request
 * path. From the build, the thread runs build/media-thread.js, compiled ahead by
 * scripts/build-server.mjs; under tsx (tests, scripts) it loads app/media/transcode-thread.ts
 * through tsx. Either is found from this module's own location, never from the working
 * directory: see `threadEntry`.
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
const COMPILED_FILE = 'media-thread.js';

/**
 * The thread's entry. In the Remix build this module is bundled into build/index.js: the
 * thread is build/media-thread.js beside it when `npm run build` compiled it (plain
 * JavaScript: no tsx loader thread and no TypeScript compiled in each job, decision 040).
 * Otherwise (under tsx, or a build without it) it is the boot file, a plain module that
 * registers tsx and imports ./transcode-thread.ts, in the nearest folder above this module
 * that holds it: the app's root (`npm start`, Docker), wherever the process was started from
 * (`cd /tmp && node …/server.js`).
 */
export function threadEntry(from: string = import.meta.url): string {
  const file = from.startsWith('file:') ? fileURLToPath(from) : from;
  const start = path.dirname(file);
  if (!/\.tsx?$/.test(file)) {
    const compiled = path.join(start, COMPILED_FILE);
    if (fs.existsSync(compiled)) return compiled;
  }
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
