import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';

import { FormFailure } from '~/components/admin/form-alert';
import { Send } from '~/components/admin/icons';
import { useAdminForm } from '~/components/admin/upload-form';
import { usePostPending } from '~/components/admin/use-post-pending';
import { SubmitButton } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { ConformInputField, ConformTextareaField } from '~/components/ui/conform-fields';
import { ComposeNewsletterSchema } from '~/schemas/subscriber';
import type { NewsletterJSON, NewsletterProgressJSON } from '~/types/entities';

import { plural } from './plural';
import { SentNewsletters } from './sent-newsletters';

/** What the action answers when a newsletter is not recorded. */
export type ComposeActionData = {
  result: SubmissionResult<string[]>;
  failureTitle: string | null;
};

/** How often the tab reloads its figures while an issue is going out (with JavaScript). */
const PROGRESS_POLL_MS = 2000;

/**
 * The compose tab: the newsletter form, then the issues sent so far with their progress
 * (with JavaScript it follows a send as it goes; without, a reload shows where it stands).
 */
export function ComposeTab({
  total,
  delivery,
  newsletters,
  actionData,
}: {
  total: number;
  delivery: string;
  newsletters: (NewsletterJSON & { progress: NewsletterProgressJSON })[];
  actionData: ComposeActionData | undefined;
}) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const inProgress = newsletters.some(
    (n) => n.progress.state === 'queued' || n.progress.state === 'sending',
  );
  useEffect(() => {
    if (!inProgress) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') {
        revalidator.revalidate();
      }
    }, PROGRESS_POLL_MS);
    return () => clearInterval(timer);
  }, [inProgress, revalidator]);
  const pending = usePostPending();
  const [form, fields] = useAdminForm({
    id: 'compose-newsletter',
    lastResult: navigation.state === 'idle' ? actionData?.result : null,
    schema: ComposeNewsletterSchema,
  });

  const failureTitle = actionData?.failureTitle ?? 'Failed to send newsletter';

  return (
    <div className="space-y-8">
      <Card
        title="Compose Newsletter"
        description={`Addressed to all ${plural(total, 'active subscriber', 'active subscribers')}; each gets their own unsubscribe link.`}
      >
        <p className="mb-4 text-sm" data-testid="mail-delivery">
          <span className="font-medium">Delivery:</span> {delivery}
        </p>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormFailure id={form.errorId} title={failureTitle} errors={form.errors} />
          <ConformInputField label="Subject" field={fields.subject} />
          <ConformTextareaField label="Content" field={fields.content} rows={12} />
          <div className="flex justify-end">
            <SubmitButton pending={pending} pendingLabel="Sending...">
              <Send aria-hidden="true" className="h-4 w-4" />
              Send Newsletter
            </SubmitButton>
          </div>
        </Form>
      </Card>

      <SentNewsletters newsletters={newsletters} />
    </div>
  );
}
