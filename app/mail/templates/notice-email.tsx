import { Button } from '@react-email/button';
import { Heading } from '@react-email/heading';
import { Text } from '@react-email/text';

import { type MailColours, MailLayout, Paragraphs } from './layout';

/** A one-off message: a heading, text, optionally a button (confirmations, notifications). */
export function NoticeEmail(props: {
  siteName: string;
  heading: string;
  text: string;
  colours: MailColours;
  action?: { label: string; url: string };
  footer: string;
}) {
  return (
    <MailLayout
      siteName={props.siteName}
      preview={props.heading}
      colours={props.colours}
      footer={<Text style={{ margin: 0 }}>{props.footer}</Text>}
    >
      <Heading as="h1" style={{ fontSize: '22px', lineHeight: '28px', margin: '0 0 16px' }}>
        {props.heading}
      </Heading>
      <Paragraphs text={props.text} />
      {props.action ? (
        <Button
          href={props.action.url}
          style={{
            backgroundColor: props.colours.primary,
            color: props.colours.onPrimary,
            borderRadius: '6px',
            fontWeight: 700,
            padding: '12px 20px',
          }}
        >
          {props.action.label}
        </Button>
      ) : null}
    </MailLayout>
  );
}
