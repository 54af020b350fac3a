import { renderNotice } from '~/mail/render.server';
import { signLinkToken } from '~/mail/tokens.server';
import { deliveryDescription } from '~/mail/transport.server';
import { kickMailWorker } from '~/mail/worker.server';
import { enqueueMessage } from '~/models/mail-delivery.server';
import { createNewsletterIssue } from '~/models/newsletter.server';
import { getNewsletterSettings } from '~/models/newsletter-settings.server';
import { signUpSubscriber } from '~/models/subscriber.server';
import { getTheme } from '~/models/theme.server';
import { env } from '~/platform/env.server';
import { siteOrigin } from '~/platform/site-origin.server';
import type {
  ContactMessageJSON,
  NewsletterJSON,
  ShowJSON,
  SubscriberJSON,
  UserJSON,
} from '~/types/entities';

/**
 * What the site emails, queued in MongoDB and sent by the mail worker
 * (docs/decisions/016-email-delivery.md). Routes call these; each returns once the mail is
 * queued (durable), not once it is sent.
 */

/** Send an issue to every active subscriber (NoSubscribersError when there is none). */
export async function sendNewsletter(input: {
  subject: string;
  content: string;
}): Promise<NewsletterJSON> {
  const newsletter = await createNewsletterIssue({
    ...input,
    delivery: deliveryDescription().kind,
    baseUrl: siteOrigin(),
  });
  kickMailWorker();
  return newsletter;
}

/**
 * What a sign-up is answered (the forms' toast, POST /api/subscribe): the same for every
 * address, new or already known, so the answer tells a stranger nothing about the list
 * (decision 029). `pending` when sign-ups must be confirmed (double opt-in), else `subscribed`.
 */
export type SignUpAnswer = 'subscribed' | 'pending';

/**
 * A sign-up (see `signUpSubscriber` for what it does to a known address). The email it owes
 * is queued: a confirmation link, or a note that the address is already subscribed.
 *
 * `answer` is for whoever asked. `mustConfirm` says whether this address now waits for its
 * confirmation link (a new one with double opt-in, or one that left): it describes the stored
 * record, so it is only for the address's owner (the account page), never for an answer to
 * an anonymous sign-up. `ownerProven`: the account page signs up the member's own confirmed
 * address, whose owner has already proven it (an address that left comes back at once).
 */
export async function subscribe(input: {
  name?: string | null;
  email: string;
  /** The address is a logged-in member's own confirmed one (decision 030). */
  ownerProven?: boolean;
}): Promise<{ answer: SignUpAnswer; mustConfirm: boolean }> {
  const { doubleOptIn } = await getNewsletterSettings();
  const { subscriber, mail } = await signUpSubscriber({ ...input, doubleOptIn });
  if (mail === 'confirm') await sendConfirmation(subscriber);
  if (mail === 'already-subscribed') await sendAlreadySubscribed(subscriber);
  return {
    answer: doubleOptIn ? 'pending' : 'subscribed',
    mustConfirm: subscriber.status === 'pending',
  };
}

/** The answer to a sign-up a bot made (honeypot): what a person would get, nothing stored. */
export async function decoySignUpAnswer(): Promise<SignUpAnswer> {
  const { doubleOptIn } = await getNewsletterSettings();
  return doubleOptIn ? 'pending' : 'subscribed';
}

async function sendConfirmation(subscriber: SubscriberJSON) {
  const theme = await getTheme();
  const token = signLinkToken('confirm', subscriber.id);
  const url = `${siteOrigin()}/newsletter/confirm/${token}`;
  const mail = await renderNotice({
    siteName: env.SITE_NAME,
    subject: `Confirm your subscription to the ${env.SITE_NAME} newsletter`,
    heading: 'One more step',
    text: `Hi ${subscriber.name},\n\nPlease confirm that you want to receive the ${env.SITE_NAME} newsletter at this address. The link works for 7 days.`,
    primary: theme.primary,
    action: { label: 'Confirm subscription', url },
    footer: `If you did not sign up, ignore this email: without confirmation you will receive nothing.`,
  });
  await enqueueMessage({
    to: subscriber.email,
    toName: subscriber.name,
    ...mail,
    purpose: 'confirm',
  });
  kickMailWorker();
}

/**
 * An active address was signed up again: its owner hears so (the answer on the site said
 * nothing about it). At most once per ALREADY_SUBSCRIBED_NOTICE_INTERVAL_MS per address.
 */
async function sendAlreadySubscribed(subscriber: SubscriberJSON) {
  const theme = await getTheme();
  const token = signLinkToken('unsubscribe', subscriber.id);
  const url = `${siteOrigin()}/unsubscribe/${token}`;
  const mail = await renderNotice({
    siteName: env.SITE_NAME,
    subject: `You are already subscribed to the ${env.SITE_NAME} newsletter`,
    heading: 'You are already on the list',
    text: `Hi ${subscriber.name},\n\nSomeone, probably you, asked to subscribe this address to the ${env.SITE_NAME} newsletter. It is already subscribed, so nothing has changed: you will keep receiving it.`,
    primary: theme.primary,
    action: { label: 'Unsubscribe instead', url },
    footer: `If you did not ask, ignore this email. We send this note at most once a day.`,
  });
  await enqueueMessage({
    to: subscriber.email,
    toName: subscriber.name,
    ...mail,
    purpose: 'already-subscribed',
  });
  kickMailWorker();
}

/** A new contact message, forwarded to CONTACT_EMAIL; replying answers the sender. */
export async function notifyContactMessage(message: ContactMessageJSON): Promise<void> {
  const theme = await getTheme();
  const adminUrl = `${siteOrigin()}/admin/messages/${message.id}`;
  const mail = await renderNotice({
    siteName: env.SITE_NAME,
    subject: `[${env.SITE_NAME}] ${message.subject} from ${message.name}`,
    heading: `${message.subject} from ${message.name}`,
    text: `${message.message}\n\n${message.name} <${message.email}>`,
    primary: theme.primary,
    action: { label: 'Open in the back office', url: adminUrl },
    footer: `Sent from the contact form of ${siteOrigin().replace(/^https?:\/\//, '')}. Reply to this email to answer ${message.name}.`,
  });
  await enqueueMessage({
    to: env.CONTACT_EMAIL,
    replyTo: `"${message.name.replace(/["\\\r\n]/g, '')}" <${message.email}>`,
    ...mail,
    purpose: 'contact',
  });
  kickMailWorker();
}

/**
 * A member got a spot on a show's guest list (decision 018): the confirmation goes to the
 * account's email, when the member gave one (decision 020); otherwise nothing is sent.
 */
export async function notifyGuestListSpot(
  member: UserJSON & { email: string | null },
  show: ShowJSON,
  when: string,
): Promise<boolean> {
  if (!member.email) return false;
  const theme = await getTheme();
  const url = `${siteOrigin()}/shows#show-${show.id}`;
  const mail = await renderNotice({
    siteName: env.SITE_NAME,
    subject: `You're on the guest list: ${show.title}`,
    heading: "You're on the guest list",
    text: `Hi ${member.username},\n\nYou have a spot on the members' guest list of ${when}${show.location ? `, ${show.location}` : ''}${show.time ? `, ${show.time}` : ''}.\n\nGive your username (${member.username}) at the door.`,
    primary: theme.primary,
    action: { label: 'See the show', url },
    footer: `Can't make it? Cancel your spot on the Shows page so someone else can have it.`,
  });
  await enqueueMessage({
    to: member.email,
    toName: member.username,
    ...mail,
    purpose: 'guest-list',
  });
  kickMailWorker();
  return true;
}

/**
 * The link that confirms an address given on /account (decision 030): the only message an
 * unconfirmed address ever gets. `token` is the link's secret (only its hash is stored).
 */
export async function sendEmailVerification(input: {
  username: string;
  email: string;
  token: string;
}): Promise<void> {
  const theme = await getTheme();
  const url = `${siteOrigin()}/account/verify-email/${input.token}`;
  const mail = await renderNotice({
    siteName: env.SITE_NAME,
    subject: `Confirm your email address for ${env.SITE_NAME}`,
    heading: 'Confirm your email address',
    text: `Hi ${input.username},\n\nThe ${env.SITE_NAME} account "${input.username}" asked to use this address. Open the link below, logged in as ${input.username}, to confirm it. The link works for 24 hours.`,
    primary: theme.primary,
    action: { label: 'Confirm my email address', url },
    footer: `If this wasn't you, ignore this email: an address that is not confirmed gets nothing else from us.`,
  });
  await enqueueMessage({
    to: input.email,
    toName: input.username,
    ...mail,
    purpose: 'verify-email',
  });
  kickMailWorker();
}
