import { Form, useNavigation } from '@remix-run/react';

import { PageHeader } from '~/components/site/section-heading';
import { SubmitButton } from '~/components/ui/button';

/**
 * The page a link from one of our emails opens (confirming a subscription, unsubscribing,
 * decision 029): the newsletter's header, then one outcome or the question the link asks.
 */
export function EmailLinkPage({
  intro,
  testId,
  children,
}: {
  intro: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <>
      <PageHeader title="Newsletter" intro={intro} />
      <div className="container max-w-xl py-12" data-testid={testId}>
        {children}
      </div>
    </>
  );
}

/** One outcome of the link: an alert when it is refused, a status otherwise. */
export function EmailLinkOutcome({
  role,
  title,
  children,
}: {
  role: 'alert' | 'status';
  title: string;
  children: React.ReactNode;
}) {
  return (
    <div role={role} className="space-y-2">
      <h2 className="text-2xl font-bold">{title}</h2>
      <p className="text-muted-foreground">{children}</p>
    </div>
  );
}

/**
 * The question and its button: opening the link changes nothing (a mail scanner that follows
 * links acts for no one), posting this form does.
 */
export function EmailLinkQuestion({
  label,
  pendingLabel,
  children,
}: {
  label: string;
  pendingLabel: string;
  children: React.ReactNode;
}) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="space-y-4">
      <p>{children}</p>
      <SubmitButton pending={navigation.state === 'submitting'} pendingLabel={pendingLabel}>
        {label}
      </SubmitButton>
    </Form>
  );
}
