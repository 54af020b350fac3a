import { siteOrigin } from '~/server/site-origin.server';
import { renderNotice } from '~/mail/render.server';
import { signLinkToken } from '~/mail/tokens.server';
import { deliveryDescription } from '~/mail/transport.server';
import { kickMailWorker } from '~/mail/worker.server';
import { enqueueMessage } from '~/models/mail-delivery.server';
import { createNewsletterIssue } from '~/models/newsletter.server';
import { getNewsletterSettings } from '~/models/newsletter-settings.server';
import { createSubscriber } from '~/models/subscriber.server';
import { getTheme } from '~/models/theme.server';
import { env } from '~/server/env.server';
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
 * A sign-up. With confirmation on (double opt-in, /admin/settings) the address stays
 * pending and gets a confirmation email; otherwise it is active at once.
 * AlreadySubscribedError for an address that is already active.
 */
export async function subscribe(
  input: { name?: string | null; email: string },
  request: Request | undefined,
): Promise<{ subscriber: SubscriberJSON; mustConfirm: boolean }> {
  const { doubleOptIn } = await getNewsletterSettings();
  const subscriber = await createSubscriber({
    ...input,
    status: doubleOptIn ? 'pending' : 'active',
  });
  if (doubleOptIn) await sendConfirmation(subscriber, request);
  return { subscriber, mustConfirm: doubleOptIn };
}

async function sendConfirmation(subscriber: SubscriberJSON, request: Request | undefined) {
  const theme = await getTheme();
  const url = `${siteOrigin()}/newsletter/confirm/${signLinkToken('confirm', subscriber.id)}`;
  const mail = await renderNotice({
    siteName: env.SITE_NAME,
    subject: `Confirm your subscription to the ${env.SITE_NAME} newsletter`,
    heading: 'One more step',
    text: `Hi ${subscriber.name},\n\nPlease confirm that you want to receive the ${env.SITE_NAME} newsletter at this address.`,
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
