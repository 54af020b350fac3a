import crypto from 'node:crypto';
import os from 'node:os';

import { processSingleton } from './process-state.server';

/**
 * The loop under every durable queue (the mail queue, decision 016; the media jobs, decision
 * 035): `concurrency` loops on every app instance, each claiming one due job at a time with a
 * lease (atomically, in the model, so no two instances take the same job), handing it to the
 * queue's own `handle`, and looking again after `pollMs` when there is nothing to do or the
 * database is away (the claim, if any, then runs out and the job is claimed again: crash
 * recovery is the lease). `kick()` wakes the idle loops at once when this instance queues
 * something; `stop()` stops claiming and waits for the jobs in flight (the queue may end them
 * first, `beforeDrain`). What a job is, how it is recorded and when it is retried stay with
 * the queue: this module knows no model.
 */
export type DurableQueueOptions<Job> = {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Take one due job for `workerId` until `leaseMs` from now, or null when none is due. */
  claim: (workerId: string, leaseMs: number) => Promise<Job | null>;
  /** Do the job and record its outcome (done, retry at `retryAt`, failed, released). */
  handle: (job: Job) => Promise<void>;
  /** A claim or a job threw (the database is away, a message could not be built). */
  onError: (error: unknown) => void;
  /** Called by `stop()` once claiming has stopped, before the jobs in flight are awaited. */
  beforeDrain?: () => Promise<void>;
};

/** The longest wait between two attempts at one job. */
export const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** When attempt `attempts` + 1 is due: `retryMs`, doubled per attempt, at most an hour. */
export function retryAt(retryMs: number, attempts: number, now = Date.now()): Date {
  return new Date(now + Math.min(retryMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS));
}

export class DurableQueue<Job> {
  /** This instance's name on the leases it holds (host, process, random). */
  readonly id = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  private isRunning = false;
  private loops: Promise<void>[] = [];
  private sleepers = new Set<() => void>();

  constructor(private readonly options: DurableQueueOptions<Job>) {}

  /** False once `stop()` was called: a job that fails now was interrupted, not at fault. */
  get running(): boolean {
    return this.isRunning;
  }

  start(): void {
    if (this.isRunning) return;
    this.isRunning = true;
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop());
  }

  /** Stop claiming; the jobs in flight finish (or are ended by `beforeDrain`) first. */
  async stop(): Promise<void> {
    this.isRunning = false;
    this.kick();
    await this.options.beforeDrain?.();
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** Something was queued here: look now rather than at the next poll. */
  kick(): void {
    for (const wake of this.sleepers) wake();
    this.sleepers.clear();
  }

  /**
   * `work` while the lease is renewed every third of it; `renew` answers false when the
   * lease is lost (another instance took the job over), and `onLost` then ends the work.
   * A renewal the database does not answer is tried again at the next tick.
   */
  async whileLeased<T>(
    work: Promise<T>,
    renew: (workerId: string, leaseMs: number) => Promise<boolean>,
    onLost: () => void,
  ): Promise<T> {
    const { leaseMs } = this.options;
    const timer = setInterval(
      () => {
        void renew(this.id, leaseMs).then(
          (kept) => {
            if (!kept) onLost();
          },
          () => undefined,
        );
      },
      Math.max(250, leaseMs / 3),
    );
    try {
      return await work;
    } finally {
      clearInterval(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private async loop(): Promise<void> {
    const { claim, handle, onError, leaseMs, pollMs } = this.options;
    while (this.isRunning) {
      let job: Job | null = null;
      try {
        job = await claim(this.id, leaseMs);
        if (job) await handle(job);
      } catch (error) {
        // The database is unreachable (or the job threw): the claim, if any, runs out and
        // the job is claimed again.
        onError(error);
        await this.sleep(pollMs);
        continue;
      }
      if (!job) await this.sleep(pollMs);
    }
  }
}

type QueueWorker = { start(): void; stop(): Promise<void>; kick(): void };

declare module './process-state.server' {
  interface ProcessStateRegistry {
    queueWorkers: Map<string, QueueWorker>;
  }
}

/**
 * This process's one worker of a queue, kept in the process state (process-state.server.ts) so
 * that a module loaded twice (the dev server's rebuilds) does not start a second: started once
 * at app start-up, stopped at shutdown, kicked when something is queued here.
 */
export function processWorker<W extends QueueWorker>(name: string, create: () => W) {
  const workers = processSingleton('queueWorkers', () => new Map<string, QueueWorker>());
  return {
    start(): W {
      let worker = workers.get(name) as W | undefined;
      if (!worker) workers.set(name, (worker = create()));
      worker.start();
      return worker;
    },
    async stop(): Promise<void> {
      const worker = workers.get(name);
      workers.delete(name);
      await worker?.stop();
    },
    kick(): void {
      workers.get(name)?.kick();
    },
  };
}
