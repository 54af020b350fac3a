import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

import nodemailer from 'nodemailer';

import { env } from '~/platform/env.server';

/**
 * Where email goes (docs/decisions/016-email-delivery.md): an SMTP server (SMTP_URL, through
 * nodemailer's connection pool) or, without one, the outbox folder, one `.eml` file per
 * message. Nothing pretends: a message is either accepted by the SMTP server or on disk.
 */
export type OutgoingMail = {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  /** `<...@host>`, stable per delivery: a copy sent twice after a crash has the same id. */
  messageId: string;
  headers?: Record<string, string>;
};

export type MailTransport = {
  kind: 'smtp' | 'outbox';
  /** For the admin and the start-up log. */
  description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
};

/** A failed send, told apart as the queue needs it: retry later, or give up now. */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The SMTP reply code, when the server answered. */
    readonly responseCode: number | null = null,
  ) {
    super(message);
  }
}

/** SMTP 5xx is permanent; 4xx, timeouts and connection errors are worth another try. */
export function classifySendError(error: unknown): MailSendError {
  if (error instanceof MailSendError) return error;
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  const reply = e.response || e.message || String(error);
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  return new MailSendError(
    code ? reply : `${e.code ? `${e.code}: ` : ''}${reply}`,
    code !== null && code >= 500,
    code,
  );
}

/** The sender: MAIL_FROM, or the site's name and CONTACT_EMAIL. */
export function mailFrom(): string {
  return env.MAIL_FROM ?? `"${env.SITE_NAME.replace(/["\\]/g, '')}" <${env.CONTACT_EMAIL}>`;
}

/** The outbox folder: MAIL_OUTBOX_DIR, or DATA_DIR/outbox. */
export function outboxDir(): string {
  return path.resolve(env.MAIL_OUTBOX_DIR ?? path.join(env.DATA_DIR, 'outbox'));
}

/** What nodemailer composes the message from; `Date` is when it leaves. */
const messageOptions = (mail: OutgoingMail) => ({
  from: mail.from,
  to: mail.to,
  replyTo: mail.replyTo,
  subject: mail.subject,
  html: mail.html,
  text: mail.text,
  messageId: mail.messageId,
  date: new Date(),
  headers: mail.headers,
});

function smtpTransport(url: string, connections: number): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: connections,
    maxMessages: 1000,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  const host = new URL(url).host.replace(/^.*@/, '');
  return {
    kind: 'smtp',
    description: `SMTP server ${host}`,
    async send(mail) {
      try {
        await transporter.sendMail(messageOptions(mail));
      } catch (error) {
        throw classifySendError(error);
      }
    },
    close: () => transporter.close(),
  };
}

function outboxTransport(dir: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  let ready: Promise<unknown> | null = null;
  return {
    kind: 'outbox',
    description: 'outbox folder (no SMTP server configured)',
    async send(mail) {
      ready ??= fs.mkdir(dir, { recursive: true });
      await ready;
      const info = await composer.sendMail(messageOptions(mail));
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`;
      // Written whole, then renamed: a reader never sees half a message.
      const part = path.join(dir, `.${name}.part`);
      await fs.writeFile(part, info.message as Buffer);
      await fs.rename(part, path.join(dir, name));
    },
    close: () => composer.close(),
  };
}

/** The transport the environment asks for. */
export function createMailTransport(
  options: { smtpUrl?: string; outbox?: string; connections?: number } = {},
): MailTransport {
  const smtpUrl = options.smtpUrl ?? env.SMTP_URL;
  return smtpUrl
    ? smtpTransport(smtpUrl, options.connections ?? env.MAIL_CONCURRENCY)
    : outboxTransport(options.outbox ?? outboxDir());
}

/** How this instance delivers, for the admin newsletter screen. */
export function deliveryDescription(): { kind: 'smtp' | 'outbox'; text: string } {
  if (env.SMTP_URL) {
    const host = new URL(env.SMTP_URL).host.replace(/^.*@/, '');
    return { kind: 'smtp', text: `SMTP server ${host}` };
  }
  return { kind: 'outbox', text: 'outbox folder (no SMTP server configured)' };
}
