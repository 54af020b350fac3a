import { AsyncLocalStorage } from 'node:async_hooks';

import type {
  MessageQueue,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
  RetryPolicy,
} from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';

import {
  claimJob,
  finishJob,
  insertJobs,
  type JobDoc,
  renewJob,
  requeueJob,
  runningForHost,
} from '~/models/fediverse-store.server';
import { DurableQueue, MAX_BACKOFF_MS, retryAt } from '~/platform/durable-queue.server';

import { isPublicUrl } from './public-address.server';

/**
 * Fedify's message queue on our durable queue (decision 053): every message (a delivery to one
 * inbox, an incoming activity to process, a fan-out to the followers) is a job in
 * `fediverse_jobs`, claimed with a lease by the durable-queue loop on any instance, so each is
 * handled once however many instances run (a job in flight when its instance dies is claimed
 * again once its lease runs out: at least once, never zero). On top of that loop:
 *
 * - **per-host limit**: a delivery is held back (released for a moment) while `hostConcurrency`
 *   deliveries to the same host are in flight over all instances;
 * - **retries**: Fedify retries a failed delivery itself by queueing it again with a delay
 *   (its `outboxRetryPolicy`, `deliveryRetryPolicy` below); a message whose handler throws is
 *   retried here with the same backoff;
 * - **a bounded time**: a job not done `maxAgeMs` after its first attempt (a delivery's
 *   `started`) is dropped with a log line naming the activity and the inbox;
 * - **public peers only**: unless `allowPrivatePeers`, a delivery to an inbox on a loopback or
 *   private address is dropped.
 *
 * The shape of Fedify's messages (`type`, `inbox`, `activityId`, `started`, `attempt`) is read
 * only to route and log them; an unknown shape is handled as a plain job.
 */
export type FediverseQueueOptions = {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  retryMs: number;
  maxAgeMs: number;
  hostConcurrency: number;
  allowPrivatePeers: boolean;
  log: (level: 'info' | 'warn' | 'error', message: string, fields?: object) => void;
};

/** What we read of a Fedify message. */
type MessageShape = {
  type?: string;
  inbox?: string;
  activityId?: string;
  activityType?: string;
  started?: string;
  attempt?: number;
};

/** The message the current handler runs for (the retry policy logs its drop). */
const current = new AsyncLocalStorage<MessageShape>();

const describe = (m: MessageShape) =>
  `${m.activityType?.replace(/^.*[#/]/, '') ?? 'activity'} ${m.activityId ?? ''} to ${m.inbox ?? '?'}`;

function hostOf(message: MessageShape): string | undefined {
  if (message.type !== 'outbox' || typeof message.inbox !== 'string') return undefined;
  try {
    return new URL(message.inbox).host.toLowerCase();
  } catch {
    return undefined;
  }
}

export class MongoMessageQueue implements MessageQueue {
  private handler: ((message: unknown) => Promise<void> | void) | null = null;
  private readonly loop: DurableQueue<JobDoc>;
  private listening: Promise<void> | null = null;
  private stopped: (() => void) | null = null;

  constructor(readonly options: FediverseQueueOptions) {
    this.loop = new DurableQueue<JobDoc>({
      concurrency: options.concurrency,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      claim: claimJob,
      handle: (job) => this.handle(job),
      onError: (error) =>
        options.log('error', `fediverse queue: ${error instanceof Error ? error.message : error}`),
    });
  }

  /** This instance's name on the leases it holds. */
  get workerId(): string {
    return this.loop.id;
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    if (messages.length === 0) return;
    const delayMs = Math.max(0, options?.delay?.total({ unit: 'millisecond' }) ?? 0);
    const now = Date.now();
    await insertJobs(
      messages.map((message) => {
        const shape = (message ?? {}) as MessageShape;
        const started = shape.started ? Date.parse(shape.started) : NaN;
        return {
          message: JSON.stringify(message),
          kind: typeof shape.type === 'string' ? shape.type : 'message',
          host: hostOf(shape),
          notBefore: new Date(now + delayMs),
          expiresAt: new Date((Number.isNaN(started) ? now : started) + this.options.maxAgeMs),
        };
      }),
    );
    if (delayMs === 0) this.loop.kick();
  }

  /** Handle messages on this instance until `signal` aborts or `stop()` (jobs in flight finish). */
  listen(
    handler: (message: unknown) => Promise<void> | void,
    options?: MessageQueueListenOptions,
  ): Promise<void> {
    this.handler = handler;
    this.loop.start();
    this.listening ??= new Promise<void>((resolve) => {
      this.stopped = resolve;
    });
    const signal = options?.signal;
    if (signal?.aborted) void this.stop();
    else signal?.addEventListener('abort', () => void this.stop(), { once: true });
    return this.listening;
  }

  /** Stop claiming; the jobs in flight finish first. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.stopped?.();
    this.stopped = null;
    this.listening = null;
  }

  /**
   * Fedify's `outboxRetryPolicy`: the durable queue's backoff (`retryMs` doubling, at most an
   * hour), and no retry (a log line) once the next attempt would fall after `maxAgeMs`.
   */
  readonly deliveryRetryPolicy: RetryPolicy = (context) => {
    const elapsed = context.elapsedTime.total({ unit: 'millisecond' });
    const delay = Math.min(this.options.retryMs * 2 ** context.attempts, MAX_BACKOFF_MS);
    if (elapsed + delay > this.options.maxAgeMs) {
      const message = current.getStore() ?? {};
      this.options.log('warn', `fediverse: dropped ${describe(message)}`, {
        attempts: context.attempts + 1,
        hours: Math.round((elapsed / 3_600_000) * 100) / 100,
      });
      return null;
    }
    return Temporal.Duration.from({ milliseconds: Math.round(delay) });
  };

  private async handle(job: JobDoc): Promise<void> {
    const { options } = this;
    const id = this.loop.id;
    const message = JSON.parse(job.message) as unknown;
    const shape = (message ?? {}) as MessageShape;
    if (job.expiresAt.getTime() <= Date.now()) {
      options.log('warn', `fediverse: dropped ${describe(shape)}`, {
        attempts: shape.attempt ?? job.attempts,
        reason: 'not delivered in time',
      });
      await finishJob(job._id, id);
      return;
    }
    if (job.host && (await runningForHost(job.host)) > options.hostConcurrency) {
      // The host has its share in flight: look again in a moment (a little random, so the
      // waiting deliveries do not all come back at once).
      await requeueJob(job._id, id, new Date(Date.now() + 200 + Math.random() * 800), {
        release: true,
      });
      return;
    }
    if (job.host && !options.allowPrivatePeers && !(await isPublicUrl(shape.inbox ?? ''))) {
      options.log('warn', `fediverse: dropped ${describe(shape)}`, {
        reason: 'not a public address',
      });
      await finishJob(job._id, id);
      return;
    }
    const handler = this.handler;
    if (!handler) {
      await requeueJob(job._id, id, new Date(Date.now() + options.pollMs), { release: true });
      return;
    }
    try {
      await this.loop.whileLeased(
        Promise.resolve(current.run(shape, () => handler(message))),
        (workerId, leaseMs) => renewJob(job._id, workerId, leaseMs),
        () => undefined,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const at = retryAt(options.retryMs, job.attempts);
      if (at.getTime() > job.expiresAt.getTime()) {
        options.log('warn', `fediverse: dropped ${describe(shape)}`, {
          attempts: job.attempts,
          reason,
        });
        await finishJob(job._id, id);
      } else {
        await requeueJob(job._id, id, at, { error: reason });
      }
      return;
    }
    await finishJob(job._id, id);
  }
}
