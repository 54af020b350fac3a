import { render } from '@react-email/render';

import { mailPalette } from '~/theme/colour';

/**
 * Renders emails with React Email: an HTML part and a plain-text part of the same message.
 * The templates (and React Email's components, one package each) are imported on first use,
 * so a server that never sends mail never loads them.
 */
export type RenderedMail = { subject: string; html: string; text: string };

/** Stands for each recipient's own unsubscribe URL in an issue rendered once for all. */
export const UNSUBSCRIBE_URL_PLACEHOLDER = 'https://unsubscribe.invalid/__NIGHT_SHORE_RECIPIENT__';

async function both(element: JSX.Element) {
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { html, text };
}

/**
 * A newsletter issue, rendered once per issue; `personalise` puts in one recipient's
 * unsubscribe link.
 */
export async function renderNewsletter(input: {
  siteName: string;
  subject: string;
  content: string;
  primary: string;
  siteUrl: string;
  archiveUrl: string;
}): Promise<RenderedMail> {
  const { NewsletterEmail } = await import('./templates/newsletter-email');
  const parts = await both(
    <NewsletterEmail
      {...input}
      colours={mailPalette(input.primary)}
      unsubscribeUrl={UNSUBSCRIBE_URL_PLACEHOLDER}
    />,
  );
  return { subject: input.subject, ...parts };
}

export function personalise(mail: RenderedMail, unsubscribeUrl: string): RenderedMail {
  return {
    subject: mail.subject,
    html: mail.html.split(UNSUBSCRIBE_URL_PLACEHOLDER).join(unsubscribeUrl),
    text: mail.text.split(UNSUBSCRIBE_URL_PLACEHOLDER).join(unsubscribeUrl),
  };
}

/** A one-off message (confirmation, notification). */
export async function renderNotice(input: {
  siteName: string;
  subject: string;
  heading: string;
  text: string;
  primary: string;
  action?: { label: string; url: string };
  footer: string;
}): Promise<RenderedMail> {
  const { NoticeEmail } = await import('./templates/notice-email');
  const parts = await both(<NoticeEmail {...input} colours={mailPalette(input.primary)} />);
  return { subject: input.subject, ...parts };
}
