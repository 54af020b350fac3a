import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  DEFAULT_MEDIA_JOB_LIMITS,
  type MediaJobLimits,
  runJobProcess,
  ThreadFailure,
  timeLimitSeconds,
} from './run-in-thread.server';

/**
 * The one mechanism every media job runs under (decision 046): a process of its own, killed
 * past its wall-clock limit (which grows with its input's size and its audio's length) or its
 * memory limit (its RSS: Buffers included, which a worker thread's `resourceLimits` miss), and
 * then a permanent failure that says which limit. Jobs here are small plain modules, so each
 * limit is met on purpose and at once.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-job-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
function job(source: string): string {
  const file = path.join(dir, `job-${++n}.mjs`);
  fs.writeFileSync(file, source);
  return file;
}

const limits = (over: Partial<MediaJobLimits>): MediaJobLimits => ({
  ...DEFAULT_MEDIA_JOB_LIMITS,
  ...over,
});
const MB = 1024 * 1024;

describe('media job limits', () => {
  it('gives a job base + per MB + per audio minute, the audio never longer than the file holds', () => {
    const l = limits({ baseSeconds: 60, secondsPerMb: 0.5, secondsPerAudioMinute: 6 });
    expect(timeLimitSeconds(l, 0, null)).toBe(60);
    expect(timeLimitSeconds(l, 100 * MB, null)).toBe(110);
    // A 60-minute CD-quality WAV (635 MB): 60 + 317.5 + 360 s.
    expect(timeLimitSeconds(l, 635 * MB, 3600)).toBeCloseTo(737.5);
    // A header that claims 100 hours in 1 MB counts as what 1 MB holds at 8 kbit/s.
    expect(timeLimitSeconds(l, MB, 360_000)).toBeCloseTo(60 + 0.5 + (6 * MB) / 1000 / 60);
  });

  it('answers the result a job posts', async () => {
    const run = runJobProcess<{ n: number }>(
      job(
        `process.send({ type: 'result', result: JSON.parse(process.argv[2]) }, () => process.exit(0));`,
      ),
      { n: 7 },
      0,
      DEFAULT_MEDIA_JOB_LIMITS,
    );
    expect(await run.result).toEqual({ n: 7 });
  });

  it('ends a job past its time limit, permanently, saying so', async () => {
    const run = runJobProcess(
      job('setInterval(() => {}, 1000);'),
      {},
      0,
      limits({ baseSeconds: 0.5 }),
    );
    const failure = await run.result.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ThreadFailure);
    expect(failure).toMatchObject({
      permanent: true,
      message: 'The media job was stopped: it took longer than its limit of 0.5 s (for 0 MB)',
    });
  });

  it('gives more time once the job has read how long its audio is', async () => {
    const run = runJobProcess(
      job(`process.send({ type: 'duration', seconds: 120 });
setTimeout(() => process.send({ type: 'result', result: 'done' }, () => process.exit(0)), 3500);`),
      {},
      10 * MB,
      // 3 s, and 10 more for 2 minutes of audio: the job's 3.5 s after it said so are in time.
      limits({ baseSeconds: 3, secondsPerMb: 0, secondsPerAudioMinute: 5 }),
    );
    expect(await run.result).toBe('done');
  });

  it('ends a job whose Buffers pass its memory limit, permanently, saying so', async () => {
    // Outside the V8 heap: what a worker thread's resourceLimits never saw.
    const run = runJobProcess(
      job(`const held = [];
setInterval(() => held.push(Buffer.alloc(8 * 1024 * 1024, 1)), 10);`),
      {},
      0,
      limits({ memoryMb: 128 }),
    );
    const failure = await run.result.catch((e: unknown) => e);
    expect(failure).toMatchObject({
      permanent: true,
      message: 'The media job was stopped: it used more than its memory limit of 128 MB',
    });
    expect(run.peakRss()).toBeGreaterThan(128 * MB);
  });

  it.skipIf(process.platform !== 'linux')(
    'watches the memory from outside: a job that never yields is ended too',
    async () => {
      const run = runJobProcess(
        job(`const held = [];
for (;;) {
  held.push(Buffer.alloc(4 * 1024 * 1024, 1));
  const until = Date.now() + 10;
  while (Date.now() < until);
}`),
        {},
        0,
        limits({ memoryMb: 128 }),
      );
      await expect(run.result).rejects.toMatchObject({
        permanent: true,
        message: expect.stringMatching(/memory limit of 128 MB/),
      });
      // Read every 100 ms: at 400 MB/s the job is ended within about 40 MB of its limit.
      expect(run.peakRss()).toBeLessThan(256 * MB);
    },
  );

  it('reports a crash or a stop as temporary (the file is not known to be at fault)', async () => {
    await expect(
      runJobProcess(job('process.exit(3);'), {}, 0, DEFAULT_MEDIA_JOB_LIMITS).result,
    ).rejects.toMatchObject({ permanent: false, message: expect.stringMatching(/exit code 3/) });
    const run = runJobProcess(job('setInterval(() => {}, 1000);'), {}, 0, DEFAULT_MEDIA_JOB_LIMITS);
    await run.terminate();
    await expect(run.result).rejects.toMatchObject({ permanent: false });
  });
});
