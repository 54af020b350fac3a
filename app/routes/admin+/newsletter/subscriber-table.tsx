import { Link } from '@remix-run/react';

import { AdminTable } from '~/components/admin/admin-table';
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
 * (`search` keeps the current filter across the dialog), or the `empty` line when none match.
 */
export function SubscriberTable({
  subscribers,
  search,
  empty,
}: {
  subscribers: SubscriberJSON[];
  search: string;
  empty: string;
}) {
  return (
    <AdminTable
      caption="Newsletter subscribers, newest first"
      columns={[
        'Subscriber',
        'Status',
        { label: 'Date Added', wideOnly: true },
        { label: 'Actions', align: 'right' },
      ]}
      rows={subscribers}
      empty={empty}
    >
      {(s) => (
        <>
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
        </>
      )}
    </AdminTable>
  );
}
