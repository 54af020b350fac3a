import { Link } from '@remix-run/react';

import { ArrowLeft } from '~/components/admin/icons';
import { buttonClass } from '~/components/ui/button';
import { cn } from '~/utils/cn';

/**
 * A page of the back office: a `<section>` named by its `<h1>` (`headingId`), the heading row
 * (with `back`, an icon link back to the dashboard before the title; else the title and the
 * page's `actions` at either end), then the page. `stacked` spaces the section's children
 * evenly instead of a margin under the heading row.
 */
export function AdminPage({
  headingId,
  title,
  back = false,
  actions,
  stacked = false,
  children,
}: {
  headingId: string;
  title: string;
  back?: boolean;
  actions?: React.ReactNode;
  stacked?: boolean;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={headingId} className={stacked ? 'space-y-8' : undefined}>
      <div
        className={cn(
          !stacked && 'mb-6',
          back ? 'flex items-center gap-3' : 'flex flex-wrap items-center justify-between gap-4',
        )}
      >
        {back ? (
          <Link to="/admin" className={buttonClass('ghost', 'icon')} aria-label="Back to dashboard">
            <ArrowLeft aria-hidden="true" className="h-5 w-5" />
          </Link>
        ) : null}
        <h1 id={headingId} className="font-heading text-3xl font-bold">
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </section>
  );
}
