import { Body } from '@react-email/body';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ReactNode } from 'react';

import { paragraphsOf } from '~/utils/paragraphs';

/** The site's colours as email clients read them (hex; light background for every client). */
export type MailColours = {
  primary: string;
  /** Text on the primary colour. */
  onPrimary: string;
  /** Links on white: the primary colour when it is readable there, else near-black. */
  link: string;
};

export const mailFonts = 'Helvetica, Arial, sans-serif';

/** Every email: the site name in a band of the theme's primary colour, content, footer. */
export function MailLayout({
  siteName,
  preview,
  colours,
  children,
  footer,
}: {
  siteName: string;
  preview: string;
  colours: MailColours;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: '#f4f4f5', fontFamily: mailFonts, margin: 0 }}>
        <Container style={{ maxWidth: '600px', backgroundColor: '#ffffff' }}>
          <Section style={{ backgroundColor: colours.primary, padding: '20px 32px' }}>
            <Text
              style={{
                color: colours.onPrimary,
                fontSize: '20px',
                fontWeight: 700,
                letterSpacing: '0.08em',
                margin: 0,
                textTransform: 'uppercase',
              }}
            >
              {siteName}
            </Text>
          </Section>
          <Section style={{ padding: '24px 32px', color: '#18181b' }}>{children}</Section>
          <Hr style={{ borderColor: '#e4e4e7', margin: 0 }} />
          <Section style={{ padding: '16px 32px', color: '#52525b', fontSize: '12px' }}>
            {footer}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** Plain text typed in a textarea, as paragraphs (blank lines split them, line breaks stay). */
export function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {paragraphsOf(text).map((paragraph, i) => (
        <Text key={i} style={{ fontSize: '16px', lineHeight: '26px', whiteSpace: 'pre-line' }}>
          {paragraph}
        </Text>
      ))}
    </>
  );
}
