import { Form, Outlet, useSubmit } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';

import { Copy, Download, Search } from '~/components/admin/icons';
import { AdminPagination } from '~/components/admin/list-paging';
import { showToast } from '~/components/site/toaster';
import { Button, buttonClass } from '~/components/ui/button';
import { InputField, SelectField } from '~/components/ui/field';
import { useHydrated } from '~/player/use-hydrated';
import { SUBSCRIBER_STATUSES, type SubscriberStatus } from '~/types/entities';
import { pageHref } from '~/utils/page-href';

import { plural } from './plural';
import { STATUS_LABELS, SubscriberTable } from './subscriber-table';
import type { loadSubscribersTab } from './subscribers.server';

type TabData = Awaited<ReturnType<typeof loadSubscribersTab>>;

/**
 * The subscribers tab (issue 37: a page of the list, searched on the server): a search and a
 * status filter (live with JavaScript, a GET form without), the count line over every page,
 * the copy-all button (it fetches the active addresses when clicked, streamed) and the CSV
 * download (the way without JavaScript), the table of this page and its page links. The
 * count line counts active subscribers (those a newsletter goes to). The delete dialog route
 * renders in its `<Outlet/>`.
 */
export function SubscribersTab({
  q,
  status,
  data,
}: {
  q: string;
  status: SubscriberStatus | null;
  data: TabData;
}) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const [copying, setCopying] = useState(false);
  const { list, activeMatches, totalActive, others } = data;
  const subscribers = list.items;
  const filters = { q: q || null, status };
  // Links to the delete dialog keep the search, filter and page.
  const search = pageHref('', filters, list.page);
  const exportQuery = pageHref('', filters);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copyAll() {
    setCopying(true);
    try {
      // Fetched on demand: the page never carries every address.
      const response = await fetch(`/admin/newsletter/emails.txt${exportQuery}`, {
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
      const emails = await response.text();
      const n = emails ? emails.split(', ').length : 0;
      await navigator.clipboard.writeText(emails);
      setCopyStatus(null);
      showToast({
        type: 'success',
        title: 'Emails copied',
        description: `${n} email addresses copied to clipboard.`,
      });
    } catch {
      setCopyStatus(
        'Could not copy automatically. Download the CSV and copy the addresses from it.',
      );
    } finally {
      setCopying(false);
    }
  }

  return (
    <div>
      <Outlet />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <Form
          method="get"
          role="search"
          // Wraps on a phone, so the search field keeps a usable width (target size).
          className="flex min-w-0 flex-1 flex-wrap items-end gap-2"
          // An explicit search (Enter or the button) replaces the pending live one.
          onSubmit={() => clearTimeout(timer.current)}
        >
          <InputField
            label="Search subscribers"
            field={{ id: 'subscriber-search' }}
            className="min-w-48 flex-1"
            inputProps={{
              type: 'search',
              name: 'q',
              defaultValue: q,
              placeholder: 'Name or email',
              onChange: (event) => {
                const form = event.currentTarget.form;
                clearTimeout(timer.current);
                timer.current = setTimeout(() => {
                  if (form) submit(form, { replace: true, preventScrollReset: true });
                }, 250);
              },
            }}
          />
          <SelectField
            label="Status"
            field={{ id: 'subscriber-status' }}
            selectProps={{
              name: 'status',
              defaultValue: status ?? '',
              onChange: (event) => {
                const form = event.currentTarget.form;
                clearTimeout(timer.current);
                if (form) submit(form, { replace: true, preventScrollReset: true });
              },
            }}
          >
            <option value="">All</option>
            {SUBSCRIBER_STATUSES.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]}
              </option>
            ))}
          </SelectField>
          <Button type="submit" variant="outline">
            <Search aria-hidden="true" className="h-4 w-4" />
            Search
          </Button>
        </Form>
        {hydrated ? (
          <Button
            variant="outline"
            onClick={copyAll}
            disabled={activeMatches === 0 || copying}
            aria-busy={copying}
          >
            <Copy aria-hidden="true" className="h-4 w-4" />
            Copy All Emails
          </Button>
        ) : null}
        <a
          href={`/admin/newsletter/subscribers.csv${exportQuery}`}
          download
          className={buttonClass('outline')}
          data-testid="subscribers-csv"
        >
          <Download aria-hidden="true" className="h-4 w-4" />
          Download CSV
        </a>
      </div>

      <p className="mb-2 text-sm text-muted-foreground" data-testid="subscriber-count">
        {plural(activeMatches, 'subscriber', 'subscribers')}
        {q || status ? ` (filtered from ${totalActive})` : ''}
        {others > 0
          ? ` · ${others} not receiving the newsletter (pending, unsubscribed or bounced)`
          : ''}
      </p>
      <p role="status" data-testid="copy-status" className="mb-2 min-h-5 text-sm font-medium">
        {copyStatus}
      </p>

      <SubscriberTable
        subscribers={subscribers}
        search={search}
        empty={
          q
            ? `No subscribers match “${q}”.`
            : status
              ? `No ${STATUS_LABELS[status].toLowerCase()} subscribers.`
              : 'No subscribers yet.'
        }
      />
      <AdminPagination
        path="/admin/newsletter"
        params={filters}
        page={list.page}
        pageCount={list.pageCount}
      />
    </div>
  );
}
