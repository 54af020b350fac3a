import { Link } from '@remix-run/react';

import { Trash2 } from '~/components/admin/icons';
import { buttonClass } from '~/components/ui/button';
import type { SubscriberJSON, SubscriberStatus } from '~/types/entities';
import { formatAddedDate } from '~/utils/time';

export const STATUS_LABELS: Record<SubscriberStatus, string> = {
  active: 'Active',
  pending: 'Pending',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
};

const STATUS_STYLES: Record<SubscriberStatus, string> = {
  active: 'border-border text-foreground',
  pending: 'border-border bg-muted text-foreground',
  unsubscribed: 'border-border bg-muted text-muted-foreground',
  bounced: 'border-destructive text-destructive',
};

/**
 * The subscribers, newest first, each with a remove link to its delete dialog route
 * (`search` keeps the current filter across the dialog).
 */
export function SubscriberTable({
  subscribers,
  search,
}: {
  subscribers: SubscriberJSON[];
  search: string;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-card">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Newsletter subscribers, newest first</caption>
        <thead className="border-b border-border bg-muted/50">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Subscriber
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Status
            </th>
            <th scope="col" className="hidden px-4 py-3 font-semibold md:table-cell">
              Date Added
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {subscribers.map((s) => (
            <tr key={s.id} className="border-b border-border last:border-0">
              <th scope="row" className="px-4 py-3 font-normal">
                <span className="block font-medium">{s.name}</span>
                <span className="block text-muted-foreground">{s.email}</span>
              </th>
              <td className="px-4 py-3">
                <span
                  className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${STATUS_STYLES[s.status]}`}
                >
                  {STATUS_LABELS[s.status]}
                </span>
              </td>
              <td className="hidden whitespace-nowrap px-4 py-3 md:table-cell">
                <time dateTime={s.createdAt}>{formatAddedDate(s.createdAt)}</time>
              </td>
              <td className="px-4 py-3 text-right">
                <Link
                  to={`${s.id}/delete${search}`}
                  preventScrollReset
                  className={buttonClass('ghost', 'icon', 'text-destructive')}
                  aria-label={`Remove ${s.email}`}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
