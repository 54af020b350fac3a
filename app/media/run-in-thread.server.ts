import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { ProcessResult } from './transcode.server';
import type { ThreadInput } from './transcode-thread';

/**
 * Runs a media job (`processAudio`: decode, peaks, 192 kbps MP3) in a process of its own, so
 * decoding and encoding never block the request path and a job's memory is its own, bounded
 * from outside (decision 046; the names say "thread" from decision 035, when it was a worker
 * thread). From the build the process runs build/media-thread.js, compiled ahead by
 * scripts/build-server.mjs; under tsx (tests, scripts) it loads app/media/transcode-thread.ts
 * through tsx. Either is found from this module's own location, never from the working
 * directory: see `threadEntry`.
 *
 * Every job, whatever it does, has two limits, enforced here from the parent:
 * - **Time**: `base + perMb × input MB + perAudioMinute × audio minutes` of wall clock
 *   (`timeLimitSeconds`); the audio's length counts once the job has read it from the file's
 *   headers, and never as more than the file can hold (8 kbit/s, the lowest rate of a WAV or an
 *   MP3 it accepts).
 * - **Memory**: the process's resident set (V8 heap, Buffers, WebAssembly memories, native
 *   allocations: everything a worker thread's `resourceLimits` does not see), read from
 *   /proc/<pid>/status every 100 ms: its high-water mark (VmHWM), so a peak between two reads
 *   still counts. Where there is no /proc the process reports its own RSS between two reads.
 *   The V8 heap is capped at the same figure (`--max-old-space-size`).
 *
 * Past either, the process is killed (SIGKILL) and the job fails *permanently* with a message
 * that says which limit and how much: the file is the cause, running it again changes nothing.
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

export type MediaJobLimits = {
  /** Wall clock of any job, in seconds… */
  baseSeconds: number;
  /** …plus this per MB of input… */
  secondsPerMb: number;
  /** …plus this per minute of audio, once the job knows the length. */
  secondsPerAudioMinute: number;
  /** The job process's resident set, in MB. */
  memoryMb: number;
};

/** The defaults of MEDIA_TIME_LIMIT_* and MEDIA_MEMORY_LIMIT_MB (app/platform/env.server.ts). */
export const DEFAULT_MEDIA_JOB_LIMITS: MediaJobLimits = {
  baseSeconds: 60,
  secondsPerMb: 0.5,
  secondsPerAudioMinute: 6,
  memoryMb: 384,
};

/** The least a second of accepted audio takes: 8 kHz 8-bit mono WAV (8000 B), 8 kbit/s MP3. */
const MIN_BYTES_PER_SECOND = 1000;
const MEMORY_POLL_MS = 100;
const MB = 1024 * 1024;

/** A job's wall-clock limit, in seconds, for its input's size and (once known) its length. */
export function timeLimitSeconds(
  limits: MediaJobLimits,
  sizeBytes: number,
  audioSeconds: number | null,
): number {
  const audio = Math.min(Math.max(0, audioSeconds ?? 0), sizeBytes / MIN_BYTES_PER_SECOND);
  return (
    limits.baseSeconds +
    limits.secondsPerMb * (sizeBytes / MB) +
    limits.secondsPerAudioMinute * (audio / 60)
  );
}

/** What a job process posts: its audio's length, its RSS, then its result or its error. */
export type JobMessage<R> =
  | { type: 'duration'; seconds: number }
  | { type: 'memory'; rssBytes: number }
  | { type: 'result'; result: R }
  | { type: 'error'; message: string; permanent: boolean };

const BOOT_FILE = path.join('app', 'media', 'transcode-thread-boot.mjs');
const COMPILED_FILE = 'media-thread.js';

/**
 * The job process's entry. In the Remix build this module is bundled into build/index.js: the
 * entry is build/media-thread.js beside it when `npm run build` compiled it (plain
 * JavaScript: no tsx loader and no TypeScript compiled in each job, decision 040).
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

export type ThreadRun<R = ProcessResult> = {
  result: Promise<R>;
  /** End the job (shutdown, a lost lease): its result rejects, as a temporary failure. */
  terminate: () => Promise<void>;
  /** The most the job's process has held in memory so far, in bytes. */
  peakRss: () => number;
};

/** The resident set's high-water mark of `pid` from /proc, or null where there is none. */
async function procPeakRss(pid: number): Promise<number | null> {
  try {
    const status = await fs.promises.readFile(`/proc/${pid}/status`, 'latin1');
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(status) ?? /^VmRSS:\s+(\d+) kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const mb = (bytes: number) => Math.round(bytes / MB);
const seconds = (s: number) => (s < 10 ? Math.round(s * 10) / 10 : Math.round(s));
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Run `processAudio(input, output)` in a job process, within `limits`. */
export function processAudioInThread(
  input: string,
  output: string | null,
  limits: MediaJobLimits = DEFAULT_MEDIA_JOB_LIMITS,
): ThreadRun {
  let sizeBytes = 0;
  try {
    sizeBytes = fs.statSync(input).size;
  } catch {
    // The job says what is wrong with the file.
  }
  return runJobProcess<ProcessResult>(
    (entry ??= threadEntry()),
    { input, output } satisfies ThreadInput,
    sizeBytes,
    limits,
  );
}

/**
 * Any media job: the module `file` runs in a process of its own with `job` (JSON) as its one
 * argument, posts `JobMessage`s on its IPC channel (its result or error last) and exits; it
 * is killed past `limits` for an input of `sizeBytes`.
 */
export function runJobProcess<R>(
  file: string,
  job: unknown,
  sizeBytes: number,
  limits: MediaJobLimits,
): ThreadRun<R> {
  const child = fork(file, [JSON.stringify(job)], {
    execArgv: [`--max-old-space-size=${limits.memoryMb}`],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  return watch<R>(child, sizeBytes, limits);
}

function watch<R>(child: ChildProcess, sizeBytes: number, limits: MediaJobLimits): ThreadRun<R> {
  const started = Date.now();
  let peak = 0;
  let audioSeconds: number | null = null;
  /** Why the parent ended it (a limit, a stop), or null while it runs on its own. */
  let ended: ThreadFailure | null = null;
  let reply: JobMessage<R> | null = null;
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    process.stderr.write(text);
    stderr = (stderr + text).slice(-4096);
  });

  const end = (failure: ThreadFailure) => {
    if (ended || reply) return;
    ended = failure;
    child.kill('SIGKILL');
  };
  const overMemory = () =>
    new ThreadFailure(
      `The media job was stopped: it used more than its memory limit of ${limits.memoryMb} MB`,
      true,
    );
  const checkMemory = (bytes: number) => {
    peak = Math.max(peak, bytes);
    if (peak > limits.memoryMb * MB) end(overMemory());
  };
  const checkTime = () => {
    const limit = timeLimitSeconds(limits, sizeBytes, audioSeconds);
    const left = started + limit * 1000 - Date.now();
    if (left > 0) return left;
    const audio =
      audioSeconds === null ? '' : `, ${plural(Math.round(audioSeconds / 60), 'minute')} of audio`;
    end(
      new ThreadFailure(
        `The media job was stopped: it took longer than its limit of ${seconds(limit)} s ` +
          `(for ${mb(sizeBytes)} MB${audio})`,
        true,
      ),
    );
    return 0;
  };

  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    const left = checkTime();
    if (left > 0) timer = setTimeout(arm, Math.min(left, 2 ** 31 - 1));
  };
  arm();
  let polling = false;
  const poll = setInterval(() => {
    if (polling || child.pid === undefined) return;
    polling = true;
    void procPeakRss(child.pid).then((bytes) => {
      polling = false;
      if (bytes !== null) checkMemory(bytes);
    });
  }, MEMORY_POLL_MS);

  child.on('message', (message: JobMessage<R>) => {
    if (message.type === 'duration') {
      if (!Number.isFinite(message.seconds)) return;
      audioSeconds = message.seconds;
      arm();
    } else if (message.type === 'memory') checkMemory(message.rssBytes);
    else reply = message;
  });

  const result = new Promise<R>((resolve, reject) => {
    const stopWatching = () => {
      clearTimeout(timer);
      clearInterval(poll);
    };
    child.once('error', (error) => {
      // Not started (no process to wait for): a temporary failure.
      if (child.pid !== undefined) return;
      stopWatching();
      reject(new ThreadFailure(error.message, false));
    });
    child.once('close', (code, signal) => {
      stopWatching();
      const answer = reply as JobMessage<R> | null;
      if (ended) reject(ended);
      else if (answer?.type === 'result') resolve(answer.result);
      else if (answer?.type === 'error')
        reject(new ThreadFailure(answer.message, answer.permanent));
      // V8's own heap limit (the same figure) ended it.
      else if (/heap out of memory|Allocation failed/i.test(stderr)) reject(overMemory());
      else
        reject(
          new ThreadFailure(
            `The media job's process stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`,
            false,
          ),
        );
    });
  });
  result.catch(() => undefined);

  return {
    result,
    terminate: async () => {
      end(new ThreadFailure('The media job was stopped', false));
      await result.catch(() => undefined);
    },
    peakRss: () => peak,
  };
}
