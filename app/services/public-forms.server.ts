import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { data } from '@remix-run/node';

import { redirectWithToast } from '~/auth/toast.server';
import { createContactMessage } from '~/models/contact-message.server';
import { HTTP_STATUS, reportServerFailure } from '~/platform/http-errors.server';
import { consumeRateLimit, retryAfterHeaders } from '~/platform/rate-limit.server';
import { logError } from '~/platform/request-tracking.server';
import { HONEYPOT_FIELD } from '~/schemas/common';
import { CONTACT_INTENT, ContactSchema } from '~/schemas/contact';
import { NewsletterFormSchema, NewsletterFullFormSchema } from '~/schemas/subscriber';
import type { ErrorToast, ToastInput } from '~/types/toast';

import { decoySignUpAnswer, notifyContactMessage, subscribe } from './mail.server';

/**
 * The public forms (newsletter full and minimal, contact), shared by every page that shows
 * them. Each page's action tells its forms apart with the `intent` field and calls these.
 * Errors come back as conform replies (rendered in place, also without JavaScript) plus an
 * optional toast; success redirects with a flash toast (post/redirect/get).
 */

export const SUBSCRIBE_INTENT = 'subscribe';
export { CONTACT_INTENT };

/** A success toast (its wording is the site's copy; e2e tests assert it). */
const success = (title: string, description: string) =>
  ({ type: 'success', title, description }) satisfies ToastInput;

/** After a sign-up. */
export const SUBSCRIBED_TOAST = success(
  'Subscribed!',
  'You have been successfully subscribed to our newsletter.',
);

/** With confirmation on (double opt-in): the sign-up is pending until the link is followed. */
export const CONFIRM_TOAST = success(
  'Almost there!',
  'Check your inbox: follow the link in our email to confirm your subscription.',
);

export const MESSAGE_SENT_TOAST = success(
  'Message sent!',
  "Thank you for reaching out. We'll get back to you as soon as possible.",
);

export type FormFailure = {
  ok: false;
  status: number;
  result: SubmissionResult<string[]>;
  toast: ErrorToast | null;
  /** Extra answer headers (Retry-After on a 429). */
  headers?: Record<string, string>;
};
export type FormOutcome =
  | {
      ok: true;
      stored: boolean;
      /**
       * The sign-up's answer is "check your inbox" (double opt-in): the same for every
       * address, new or known (decision 029).
       */
      mustConfirm?: boolean;
    }
  | FormFailure;

const SUBSCRIBE_FAILED = 'Subscription failed';
const CONTACT_FAILED = 'Message could not be sent';

/** A parsed submission: what answers with its errors. */
type Replying = { reply: (options: { formErrors: string[] }) => SubmissionResult<string[]> };

/** A failure shown twice: as the form's error and in a toast titled `title`. */
function failure(
  submission: Replying,
  status: number,
  title: string,
  message: string,
  headers?: Record<string, string>,
): FormFailure {
  return {
    ok: false,
    status,
    result: submission.reply({ formErrors: [message] }),
    toast: { type: 'error', title, description: message },
    ...(headers ? { headers } : {}),
  };
}

/** When a request is given, its client's abuse limit for `kind`: the 429 past it, else null. */
async function limitFailure(
  kind: 'subscribe' | 'contact',
  request: Request | undefined,
  submission: Replying,
  title: string,
): Promise<FormFailure | null> {
  const limit = request ? await consumeRateLimit(kind, request) : null;
  if (!limit || limit.ok) return null;
  return failure(submission, 429, title, limit.message, retryAfterHeaders(limit));
}

/** True when the honeypot field was filled in (a bot): answer as a success, store nothing. */
export function isHoneypotFilled(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Newsletter sign-up: `full` requires a name, `minimal` has none (decision 003). An address
 * already on the list is answered as a new one (decision 029): nothing on the page says
 * whether it was known.
 */
export async function handleSubscribe(
  formData: FormData,
  variant: 'full' | 'minimal',
  /** When given, the sign-up counts against the client's abuse limit (429 past it). */
  request?: Request,
): Promise<FormOutcome> {
  const schema = variant === 'full' ? NewsletterFullFormSchema : NewsletterFormSchema;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') {
    return { ok: false, status: 400, result: submission.reply(), toast: null };
  }
  const limited = await limitFailure('subscribe', request, submission, SUBSCRIBE_FAILED);
  if (limited) return limited;
  if (isHoneypotFilled(formData)) {
    return { ok: true, stored: false, mustConfirm: (await decoySignUpAnswer()) === 'pending' };
  }
  const name = variant === 'full' ? submission.value.name : undefined;
  try {
    // Known or new, the address gets the same answer; what differs goes by email (029).
    const { answer } = await subscribe({ name, email: submission.value.email });
    return { ok: true, stored: true, mustConfirm: answer === 'pending' };
  } catch (error) {
    const message = reportServerFailure(error, request ?? null, 'subscription failed');
    return failure(submission, HTTP_STATUS.internalServerError, SUBSCRIBE_FAILED, message);
  }
}

export async function handleContact(formData: FormData, request?: Request): Promise<FormOutcome> {
  const submission = parseWithZod(formData, { schema: ContactSchema });
  if (submission.status !== 'success') {
    return { ok: false, status: 400, result: submission.reply(), toast: null };
  }
  const limited = await limitFailure('contact', request, submission, CONTACT_FAILED);
  if (limited) return limited;
  if (isHoneypotFilled(formData)) return { ok: true, stored: false };
  let message;
  try {
    message = await createContactMessage(submission.value);
  } catch (error) {
    const message = reportServerFailure(error, request ?? null, 'contact message failed');
    return failure(submission, HTTP_STATUS.internalServerError, CONTACT_FAILED, message);
  }
  // The message is stored (the back office shows it); emailing it to the collective is
  // extra, so a failure to queue that email is logged, not shown to the visitor.
  await notifyContactMessage(message).catch((error: unknown) => {
    logError(error, request ?? null, 'contact notification could not be queued');
  });
  return { ok: true, stored: true };
}

/** What a page action returns for a failed public form. */
export function formFailure(intent: string, outcome: FormFailure) {
  return data(
    { intent, result: outcome.result, toast: outcome.toast },
    { status: outcome.status, headers: outcome.headers },
  );
}

/**
 * A page action's newsletter branch: success redirects back to `pagePath` with
 * `?subscribed=1#newsletter` (the form shows its thank-you) and the 'Subscribed!' toast.
 */
export async function subscribeAction(
  formData: FormData,
  variant: 'full' | 'minimal',
  pagePath: string,
  request?: Request,
) {
  const outcome = await handleSubscribe(formData, variant, request);
  if (!outcome.ok) return formFailure(SUBSCRIBE_INTENT, outcome);
  if (outcome.mustConfirm) {
    return redirectWithToast(`${pagePath}?subscribed=confirm#newsletter`, CONFIRM_TOAST);
  }
  return redirectWithToast(`${pagePath}?subscribed=1#newsletter`, SUBSCRIBED_TOAST);
}

export async function contactAction(formData: FormData, pagePath = '/contact', request?: Request) {
  const outcome = await handleContact(formData, request);
  if (!outcome.ok) return formFailure(CONTACT_INTENT, outcome);
  return redirectWithToast(`${pagePath}?sent=1`, MESSAGE_SENT_TOAST);
}
