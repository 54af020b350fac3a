import { Heading } from '@react-email/heading';
import { Link } from '@react-email/link';
import { Text } from '@react-email/text';

import { type MailColours, MailLayout, Paragraphs } from './layout';

/** A newsletter issue. `unsubscribeUrl` is the recipient's own link. */
export function NewsletterEmail(props: {
  siteName: string;
  subject: string;
  content: string;
  colours: MailColours;
  siteUrl: string;
  archiveUrl: string;
  unsubscribeUrl: string;
}) {
  const link = { color: props.colours.link };
  return (
    <MailLayout
      siteName={props.siteName}
      preview={props.subject}
      colours={props.colours}
      footer={
        <>
          <Text style={{ margin: '0 0 8px' }}>
            <Link href={props.archiveUrl} style={link}>
              View this issue in your browser
            </Link>
          </Text>
          <Text style={{ margin: 0 }}>
            You receive this because you subscribed to the {props.siteName} newsletter at{' '}
            <Link href={props.siteUrl} style={link}>
              {props.siteUrl.replace(/^https?:\/\//, '')}
            </Link>
            .{' '}
            <Link href={props.unsubscribeUrl} style={link}>
              Unsubscribe
            </Link>
          </Text>
        </>
      }
    >
      <Heading as="h1" style={{ fontSize: '26px', lineHeight: '32px', margin: '0 0 16px' }}>
        {props.subject}
      </Heading>
      <Paragraphs text={props.content} />
    </MailLayout>
  );
}
