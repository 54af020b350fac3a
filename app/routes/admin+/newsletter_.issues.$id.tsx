import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';

import { requireAdmin } from '~/auth/auth.server';
import { AdminTable } from '~/components/admin/admin-table';
import { ArrowLeft } from '~/components/admin/icons';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { Card } from '~/components/ui/card';
import { listFailedDeliveries } from '~/models/mail-delivery.server';
import { findByIdParam } from '~/models/model-helpers.server';
import { getNewsletter, newsletterProgress } from '~/models/newsletter.server';
import { notFound } from '~/platform/http-errors.server';
import { adminTitle } from '~/utils/seo/seo';
import { formatMessageDate } from '~/utils/time';

import { DeliveryProgress, STATE_LABELS } from './newsletter/sent-newsletters';

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  adminTitle(matches, data?.newsletter.subject ?? 'Newsletter');

/** One issue: where its send stands and the addresses that failed, with the server's reply. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const newsletter = await findByIdParam(params.id, getNewsletter);
  if (!newsletter) throw notFound('Newsletter not found');
  const [progress, failures] = await Promise.all([
    newsletterProgress(newsletter),
    listFailedDeliveries(newsletter.id),
  ]);
  return { newsletter, progress, failures };
}

export default function NewsletterIssue() {
  const { newsletter, progress, failures } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const inProgress = progress.state === 'queued' || progress.state === 'sending';
  useEffect(() => {
    if (!inProgress) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [inProgress, revalidator]);

  return (
    <section aria-labelledby="issue-heading" className="space-y-6">
      <Link
        to="/admin/newsletter?tab=compose"
        className="inline-flex items-center gap-2 text-sm underline-offset-4 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        Back to newsletters
      </Link>
      <h1 id="issue-heading" className="font-heading text-3xl font-bold">
        {newsletter.subject}
      </h1>
      <Card title="Delivery">
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-medium">Status</dt>
            <dd data-testid="newsletter-state">
              {newsletter.delivery === 'recorded'
                ? 'Recorded (not emailed)'
                : STATE_LABELS[progress.state]}
            </dd>
          </div>
          <div>
            <dt className="font-medium">Sent</dt>
            <dd>
              <time dateTime={newsletter.sentAt}>{formatMessageDate(newsletter.sentAt)}</time>
            </dd>
          </div>
          {newsletter.delivery === 'recorded' ? null : (
            <div className="sm:col-span-2">
              <dt className="font-medium">Progress</dt>
              <dd>
                <DeliveryProgress progress={progress} />
              </dd>
            </div>
          )}
          {newsletter.delivery === 'recorded' ? null : (
            <div className="sm:col-span-2">
              <dt className="font-medium">Public archive</dt>
              <dd>
                <Link
                  to={`/newsletter/${newsletter.slug}`}
                  className="underline underline-offset-4"
                >
                  /newsletter/{newsletter.slug}
                </Link>
              </dd>
            </div>
          )}
        </dl>
      </Card>
      <AdminTable
        heading="Failed addresses"
        caption="Addresses this issue could not be delivered to"
        columns={['Address', 'Reason', { label: 'Attempts', align: 'right' }]}
        rows={failures}
        rowKey={(f) => f.email}
        empty="No address has failed."
        emptyStyle="note"
      >
        {(f) => (
          <>
            <th scope="row" className="px-4 py-3 font-normal">
              {f.email}
            </th>
            <td className="px-4 py-3 font-mono text-xs">{f.reason}</td>
            <td className="px-4 py-3 text-right tabular-nums">{f.attempts}</td>
          </>
        )}
      </AdminTable>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      placement="panel"
      back={{ to: '/admin/newsletter?tab=compose', label: 'Back to newsletters' }}
    />
  );
}
