import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useOutlet } from '@remix-run/react';

import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { buttonClass } from '~/components/ui/button';
import { RouteDialog } from '~/components/ui/route-dialog';
import { getContactMessage } from '~/models/contact-message.server';
import { loadAdminItem } from '~/services/admin-item.server';
import { keepSearch, messagesListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';
import { formatMessageDate } from '~/utils/time';

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  adminTitle(matches, data?.message.subject ?? 'Message');

export async function loader(args: LoaderFunctionArgs) {
  const { item: message, closeTo } = await loadAdminItem(
    args,
    getContactMessage,
    'Message not found',
    messagesListUrl,
  );
  return { message, closeTo };
}

export default function ViewMessage() {
  const { message, closeTo } = useLoaderData<typeof loader>();
  // The delete confirmation (…/$id/delete) replaces this dialog.
  const outlet = useOutlet();
  if (outlet) return outlet;
  return (
    <RouteDialog title={message.subject} closeTo={closeTo} size="lg">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-semibold text-muted-foreground">From</dt>
        <dd>
          {message.name} &lt;
          <a href={`mailto:${message.email}`} className="underline underline-offset-4">
            {message.email}
          </a>
          &gt;
        </dd>
        <dt className="font-semibold text-muted-foreground">Date</dt>
        <dd>
          <time dateTime={message.createdAt}>{formatMessageDate(message.createdAt)}</time>
        </dd>
      </dl>
      <div className="mt-4 whitespace-pre-wrap break-words rounded-md border border-border bg-background p-4 text-sm">
        {message.message}
      </div>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Link to={closeTo} preventScrollReset className={buttonClass('outline')}>
          Close
        </Link>
        <Link
          to={`delete${keepSearch(closeTo)}`}
          preventScrollReset
          className={buttonClass('destructive')}
        >
          Delete
        </Link>
      </div>
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="messages" />;
}
