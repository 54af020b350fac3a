import {
  claimDelivery,
  type DeliveryDoc,
  markDeliveryFailed,
  markDeliveryRetry,
  markDeliverySent,
  markDeliverySkipped,
  releaseDelivery,
  takeRateSlot,
} from '~/models/mail-delivery.server';
import { getNewsletterForMail } from '~/models/newsletter.server';
import { markSubscriberBounced } from '~/models/subscriber.server';
import { getTheme } from '~/models/theme.server';
import { DurableQueue, processWorker, retryAt } from '~/platform/durable-queue.server';
import { env } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';
import { Lru } from '~/platform/lru.server';
import { siteOrigin } from '~/platform/site-origin.server';

import { personalise, type RenderedMail, renderNewsletter } from './render.server';
import { signLinkToken } from './tokens.server';
import {
  classifySendError,
  createMailTransport,
  mailFrom,
  type MailTransport,
  type OutgoingMail,
} from './transport.server';

/**
 * Sends what the mail queue holds (app/models/mail-delivery.server.ts), on every app
 * instance, through the durable-queue runner (~/platform/durable-queue.server: `concurrency`
 * loops claiming one due delivery at a time with a lease, polling every `pollMs` or at once
 * on `kick`). Each delivery is sent and its outcome recorded. Temporary failures are retried
 * with exponential backoff up to `maxAttempts`; permanent ones (SMTP 5xx) fail at once with
 * the server's reply.
 */
export type MailWorkerOptions = {
  transport: MailTransport;
  from: string;
  siteName: string;
  concurrency: number;
  leaseMs: number;
  retryMs: number;
  maxAttempts: number;
  ratePerMinute: number;
  pollMs: number;
  log: (message: string) => void;
};

/** SMTP replies that say the mailbox does not exist or cannot take mail: the address bounced. */
const BOUNCE_CODES = new Set([550, 551, 553]);

type IssueMail = RenderedMail & { baseUrl: string; archiveUrl: string };

export class MailWorker {
  private readonly queue: DurableQueue<DeliveryDoc>;
  readonly id: string;
  private issues = new Lru<number, Promise<IssueMail | null>>({ maxEntries: 8 });
  private readonly messageHost: string;

  constructor(readonly options: MailWorkerOptions) {
    this.messageHost = /@([^>\s]+)>?\s*$/.exec(options.from)?.[1] ?? 'localhost';
    this.queue = new DurableQueue({
      concurrency: options.concurrency,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      claim: claimDelivery,
      handle: (delivery) => this.deliver(delivery),
      // The message could not be built, or the database is away: tried again later.
      onError: (error) =>
        options.log(`mail worker: ${error instanceof Error ? error.message : String(error)}`),
    });
    this.id = this.queue.id;
  }

  get transport() {
    return this.options.transport;
  }

  start(): void {
    this.queue.start();
  }

  /** Stop claiming; the messages in flight finish first. */
  async stop(): Promise<void> {
    await this.queue.stop();
    this.options.transport.close();
  }

  /** Something was queued here: look now rather than at the next poll. */
  kick(): void {
    this.queue.kick();
  }

  private async deliver(d: DeliveryDoc): Promise<void> {
    const { options } = this;
    if (d.attempts > options.maxAttempts) {
      await markDeliveryFailed(d._id, this.id, `Gave up after ${options.maxAttempts} attempts`);
      return;
    }
    if (options.ratePerMinute > 0) {
      const wait = await takeRateSlot(options.ratePerMinute);
      if (wait > 0) {
        await releaseDelivery(d._id, this.id, new Date(Date.now() + wait));
        return;
      }
    }
    const mail = await this.compose(d);
    if (!mail) {
      await markDeliverySkipped(d._id, this.id, 'The newsletter was deleted before delivery');
      return;
    }
    try {
      await options.transport.send(mail);
    } catch (error) {
      const failure = classifySendError(error);
      if (failure.permanent) {
        await markDeliveryFailed(d._id, this.id, failure.message);
        if (
          d.kind === 'newsletter' &&
          d.subscriberId &&
          failure.responseCode &&
          BOUNCE_CODES.has(failure.responseCode)
        ) {
          await markSubscriberBounced(d.subscriberId, failure.message);
        }
      } else if (d.attempts >= options.maxAttempts) {
        await markDeliveryFailed(
          d._id,
          this.id,
          `Gave up after ${d.attempts} attempts: ${failure.message}`,
        );
      } else {
        await markDeliveryRetry(
          d._id,
          this.id,
          failure.message,
          retryAt(options.retryMs, d.attempts),
        );
      }
      return;
    }
    await markDeliverySent(d._id, this.id);
  }

  /** The message for a delivery; null when its newsletter is gone. */
  private async compose(d: DeliveryDoc): Promise<OutgoingMail | null> {
    const base = {
      from: this.options.from,
      to: d.toName ? `"${d.toName.replace(/["\\\r\n]/g, '')}" <${d.to}>` : d.to,
      messageId: `<${String(d._id)}@${this.messageHost}>`,
    };
    if (d.kind === 'message') {
      return {
        ...base,
        replyTo: d.replyTo,
        subject: d.subject ?? '',
        html: d.html ?? '',
        text: d.text ?? '',
      };
    }
    const issue = d.newsletterId ? await this.issue(d.newsletterId) : null;
    if (!issue || !d.subscriberId) return null;
    const unsubscribeUrl = `${issue.baseUrl}/unsubscribe/${signLinkToken('unsubscribe', d.subscriberId)}`;
    const mail = personalise(issue, unsubscribeUrl);
    return {
      ...base,
      ...mail,
      headers: {
        'List-Unsubscribe': `<${unsubscribeUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'List-Id': `${this.options.siteName.replace(/[<>"\r\n]/g, '')} newsletter <newsletter.${this.messageHost}>`,
        'X-Night-Shore-Newsletter': String(d.newsletterId),
      },
    };
  }

  /** An issue rendered once for all its recipients (kept for the last few issues). */
  private issue(id: number): Promise<IssueMail | null> {
    let cached = this.issues.get(id);
    if (!cached) {
      cached = (async () => {
        const newsletter = await getNewsletterForMail(id);
        if (!newsletter) return null;
        const theme = await getTheme();
        const baseUrl = newsletter.baseUrl || siteOrigin();
        const archiveUrl = `${baseUrl}/newsletter/${newsletter.slug}`;
        const rendered = await renderNewsletter({
          siteName: this.options.siteName,
          subject: newsletter.subject,
          content: newsletter.content,
          primary: theme.primary,
          siteUrl: baseUrl,
          archiveUrl,
        });
        return { ...rendered, baseUrl, archiveUrl };
      })();
      cached.catch(() => this.issues.delete(id));
      this.issues.set(id, cached);
    }
    return cached;
  }
}

/** A worker configured from the environment. */
export function createMailWorker(overrides: Partial<MailWorkerOptions> = {}): MailWorker {
  return new MailWorker({
    transport: overrides.transport ?? createMailTransport(),
    from: mailFrom(),
    siteName: env.SITE_NAME,
    concurrency: env.MAIL_CONCURRENCY,
    leaseMs: env.MAIL_LEASE_SECONDS * 1000,
    retryMs: env.MAIL_RETRY_SECONDS * 1000,
    maxAttempts: env.MAIL_MAX_ATTEMPTS,
    ratePerMinute: env.MAIL_RATE_PER_MINUTE,
    pollMs: 1000,
    log: (message) => logger.error(message),
    ...overrides,
  });
}

const processMailWorker = processWorker('mail', () => createMailWorker());

/** This process's worker, started once (app start-up). */
export const startMailWorker = processMailWorker.start;

/** Stop this process's worker (graceful shutdown), if it runs. */
export const stopMailWorker = processMailWorker.stop;

/** Tell this process's worker that mail was queued. */
export const kickMailWorker = processMailWorker.kick;
