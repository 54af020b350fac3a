import { Link } from '@remix-run/react';

import { AdminTable } from '~/components/admin/admin-table';
import type { NewsletterJSON, NewsletterProgressJSON, NewsletterState } from '~/types/entities';
import { formatMessageDate } from '~/utils/time';

export const STATE_LABELS: Record<NewsletterState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

/** "640 of 1,000 sent · 2 failed · 1 skipped" */
export function progressSummary(p: NewsletterProgressJSON): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const parts = [`${n(p.sent)} of ${n(p.total)} sent`];
  if (p.failed > 0) parts.push(`${n(p.failed)} failed`);
  if (p.skipped > 0) parts.push(`${n(p.skipped)} skipped`);
  return parts.join(' · ');
}

/** A progress bar that needs no JavaScript (the native element), labelled by its figures. */
export function DeliveryProgress({ progress }: { progress: NewsletterProgressJSON }) {
  const done = progress.sent + progress.failed + progress.skipped;
  return (
    <div className="min-w-40 space-y-1">
      <progress
        className="h-2 w-full accent-primary"
        max={Math.max(progress.total, 1)}
        value={done}
        aria-label={`${progress.subject}: ${progressSummary(progress)}`}
      />
      <p className="text-xs text-muted-foreground">{progressSummary(progress)}</p>
    </div>
  );
}

/** The issues sent so far, newest first, with where each send stands. */
export function SentNewsletters({
  newsletters,
}: {
  newsletters: (NewsletterJSON & { progress: NewsletterProgressJSON })[];
}) {
  return (
    <AdminTable
      heading="Sent newsletters"
      caption="Sent newsletters, newest first"
      columns={['Subject', { label: 'Sent', wideOnly: true }, 'Status', 'Progress']}
      rows={newsletters}
      rowTestId="sent-newsletter"
      empty="No newsletters have been sent yet."
      emptyStyle="note"
    >
      {(n) => (
        <>
          <th scope="row" className="px-4 py-3 font-medium">
            <Link
              to={`/admin/newsletter/issues/${n.id}`}
              className="underline-offset-4 hover:underline"
            >
              {n.subject}
            </Link>
          </th>
          <td className="hidden whitespace-nowrap px-4 py-3 md:table-cell">
            <time dateTime={n.sentAt}>{formatMessageDate(n.sentAt)}</time>
          </td>
          <td className="px-4 py-3" data-testid="newsletter-state">
            {n.delivery === 'recorded' ? 'Recorded (not emailed)' : STATE_LABELS[n.progress.state]}
          </td>
          <td className="px-4 py-3">
            {n.delivery === 'recorded' ? (
              <span className="text-xs text-muted-foreground">
                {n.sentCount} subscribers at the time
              </span>
            ) : (
              <DeliveryProgress progress={n.progress} />
            )}
          </td>
        </>
      )}
    </AdminTable>
  );
}
