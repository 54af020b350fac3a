import { Form, Outlet, useSubmit } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';

import { Copy, Search } from '~/components/admin/icons';
import { showToast } from '~/components/site/toaster';
import { Button } from '~/components/ui/button';
import { inputClass, InputField, SelectField } from '~/components/ui/field';
import { useHydrated } from '~/player/use-hydrated';
import { SUBSCRIBER_STATUSES, type SubscriberJSON, type SubscriberStatus } from '~/types/entities';

import { plural } from './plural';
import { STATUS_LABELS, SubscriberTable } from './subscriber-table';

/**
 * The subscribers tab: a search and a status filter (live with JavaScript, a GET form
 * without), the active addresses to copy, and the table. The count line counts active
 * subscribers (those a newsletter goes to). The delete dialog route renders in its `<Outlet/>`.
 */
export function SubscribersTab({
  q,
  status,
  subscribers,
  totalActive,
}: {
  q: string;
  status: SubscriberStatus | null;
  subscribers: SubscriberJSON[];
  /** Active subscribers on the whole list. */
  totalActive: number;
}) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const emailsRef = useRef<HTMLTextAreaElement>(null);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const active = subscribers.filter((s) => s.status === 'active');
  const others = subscribers.length - active.length;
  const emails = active.map((s) => s.email).join(', ');
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (status) params.set('status', status);
  const search = params.size > 0 ? `?${params}` : '';

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copyAll() {
    try {
      await navigator.clipboard.writeText(emails);
    } catch {
      // No clipboard permission: fall back to selecting the list and copying it.
      emailsRef.current?.select();
      if (!document.execCommand('copy')) {
        setCopyStatus('Could not copy automatically. Select the list below and copy it by hand.');
        return;
      }
    }
    setCopyStatus(null);
    showToast({
      type: 'success',
      title: 'Emails copied',
      description: `${active.length} email addresses copied to clipboard.`,
    });
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
          <Button variant="outline" onClick={copyAll} disabled={active.length === 0}>
            <Copy aria-hidden="true" className="h-4 w-4" />
            Copy All Emails
          </Button>
        ) : null}
      </div>

      <p className="mb-2 text-sm text-muted-foreground" data-testid="subscriber-count">
        {plural(active.length, 'subscriber', 'subscribers')}
        {q || status ? ` (filtered from ${totalActive})` : ''}
        {others > 0
          ? ` · ${others} not receiving the newsletter (pending, unsubscribed or bounced)`
          : ''}
      </p>
      <p role="status" data-testid="copy-status" className="mb-2 min-h-5 text-sm font-medium">
        {copyStatus}
      </p>

      {active.length > 0 ? (
        <details className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
          <summary className="cursor-pointer font-medium">
            All active emails (comma-separated, to copy)
          </summary>
          <label htmlFor="subscriber-emails" className="sr-only">
            Active subscriber emails, comma-separated
          </label>
          <textarea
            id="subscriber-emails"
            ref={emailsRef}
            readOnly
            rows={4}
            value={emails}
            className={`${inputClass} mt-2 font-mono text-xs`}
            onFocus={(event) => event.currentTarget.select()}
          />
        </details>
      ) : null}

      {subscribers.length === 0 ? (
        <p className="rounded-lg border border-border bg-card p-8 text-center text-muted-foreground">
          {q
            ? `No subscribers match “${q}”.`
            : status
              ? `No ${STATUS_LABELS[status].toLowerCase()} subscribers.`
              : 'No subscribers yet.'}
        </p>
      ) : (
        <SubscriberTable subscribers={subscribers} search={search} />
      )}
    </div>
  );
}
