import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, Outlet, useLoaderData } from '@remix-run/react';

import { AdminPage } from '~/components/admin/admin-page';
import { AdminTable } from '~/components/admin/admin-table';
import { Eye, Trash2 } from '~/components/admin/icons';
import { AdminPagination } from '~/components/admin/list-paging';
import { buttonClass } from '~/components/ui/button';
import { pageContactMessages } from '~/models/contact-message.server';
import { loadAdminList } from '~/services/admin-list.server';
import { keepSearch, messagesListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';
import { formatMessageDate } from '~/utils/time';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Messages');

/** Rows per page of the table. */
const MESSAGES_PER_PAGE = 50;

export async function loader({ request }: LoaderFunctionArgs) {
  const { items, ...paging } = await loadAdminList(
    request,
    pageContactMessages,
    MESSAGES_PER_PAGE,
    messagesListUrl,
  );
  return { messages: items, ...paging };
}

export default function AdminMessages() {
  const { messages, page, pageCount, listUrl } = useLoaderData<typeof loader>();
  const search = keepSearch(listUrl);
  return (
    <AdminPage headingId="messages-heading" title="Messages" back>
      <Outlet />
      <AdminTable
        caption="Contact messages, newest first"
        columns={['Name', 'Email', 'Subject', 'Date', { label: 'Actions', align: 'right' }]}
        rows={messages}
        empty="No messages have been submitted yet."
      >
        {(m) => (
          <>
            <th scope="row" className="px-4 py-3 font-medium">
              {m.name}
            </th>
            <td className="px-4 py-3">
              <a href={`mailto:${m.email}`} className="underline-offset-4 hover:underline">
                {m.email}
              </a>
            </td>
            <td className="px-4 py-3">{m.subject}</td>
            <td className="whitespace-nowrap px-4 py-3">
              <time dateTime={m.createdAt}>{formatMessageDate(m.createdAt)}</time>
            </td>
            <td className="px-4 py-3">
              <div className="flex justify-end gap-1">
                <Link
                  to={`${m.id}${search}`}
                  preventScrollReset
                  className={buttonClass('ghost', 'icon')}
                  aria-label={`View message from ${m.name}`}
                >
                  <Eye aria-hidden="true" className="h-4 w-4" />
                </Link>
                <Link
                  to={`${m.id}/delete${search}`}
                  preventScrollReset
                  className={buttonClass('ghost', 'icon', 'text-destructive')}
                  aria-label={`Delete message from ${m.name}`}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </Link>
              </div>
            </td>
          </>
        )}
      </AdminTable>
      <AdminPagination path="/admin/messages" page={page} pageCount={pageCount} />
    </AdminPage>
  );
}
