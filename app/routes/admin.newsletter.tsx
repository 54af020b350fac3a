import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import {
  Form,
  Link,
  Outlet,
  useActionData,
  useLoaderData,
  useNavigation,
  useSubmit,
} from '@remix-run/react';
import { Copy, Search, Send, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { listNewsletters, NoSubscribersError, recordNewsletter } from '~/models/newsletter.server';
import { countSubscribers, listSubscribers } from '~/models/subscriber.server';
import { ComposeNewsletterSchema } from '~/schemas/subscriber';
import { FormAlert } from '~/components/admin/form-alert';
import { showToast, useToastOnce } from '~/components/site/toaster';
import { useHydrated } from '~/player/use-hydrated';
import { TabLinks } from '~/components/admin/tab-links';
import { Button, buttonClass, SubmitButton } from '~/components/ui/button';
import { Field, inputClass } from '~/components/ui/field';
import { requireAdmin } from '~/auth/auth.server';
import { formatAddedDate, formatMessageDate } from '~/utils/time/admin-dates';
import { redirectWithToast } from '~/auth/toast.server';
import { errorMessage } from '~/utils/error-message';

export const meta: MetaFunction = () => [{ title: 'Newsletter | Admin | Night Shore' }];

type Tab = 'subscribers' | 'compose';
const tabOf = (url: URL): Tab =>
  url.searchParams.get('tab') === 'compose' ? 'compose' : 'subscribers';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const tab = tabOf(url);
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 200);
  const [subscribers, total, newsletters] = await Promise.all([
    tab === 'subscribers' ? listSubscribers({ q }) : Promise.resolve([]),
    countSubscribers(),
    tab === 'compose' ? listNewsletters({ limit: 50 }) : Promise.resolve([]),
  ]);
  return { tab, q, subscribers, total, newsletters };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ComposeNewsletterSchema });
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), failureTitle: null }, { status: 400 });
  }
  try {
    const newsletter = await recordNewsletter(submission.value);
    return redirectWithToast('/admin/newsletter?tab=compose', {
      type: 'success',
      title: 'Newsletter recorded',
      description: `Recorded for ${plural(newsletter.sentCount, 'subscriber', 'subscribers')}. It was not emailed: no mail transport is configured yet.`,
    });
  } catch (error) {
    if (error instanceof NoSubscribersError) {
      return data(
        {
          result: submission.reply({ formErrors: [error.message] }),
          failureTitle: 'No subscribers',
        },
        { status: 400 },
      );
    }
    const message = errorMessage(error);
    return data(
      {
        result: submission.reply({ formErrors: [message] }),
        failureTitle: 'Failed to send newsletter',
      },
      { status: 500 },
    );
  }
}

export default function AdminNewsletter() {
  const { tab, total, newsletters } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="newsletter-heading">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <h1 id="newsletter-heading" className="font-heading text-3xl font-bold">
          Newsletter
        </h1>
        {tab === 'subscribers' ? (
          total === 0 ? (
            <Button disabled title="There are no subscribers yet">
              <Send aria-hidden="true" className="h-4 w-4" />
              Compose Newsletter
            </Button>
          ) : (
            <Link to="?tab=compose" className={buttonClass('primary')}>
              <Send aria-hidden="true" className="h-4 w-4" />
              Compose Newsletter
            </Link>
          )
        ) : null}
      </div>
      <TabLinks
        label="Newsletter sections"
        tabs={[
          { to: '/admin/newsletter', label: 'Subscribers', current: tab === 'subscribers' },
          {
            to: '/admin/newsletter?tab=compose',
            label: 'Compose Newsletter',
            current: tab === 'compose',
          },
        ]}
      />
      {tab === 'subscribers' ? (
        <Subscribers />
      ) : (
        // A new recorded newsletter remounts the form, so it is empty again after success.
        <Compose key={newsletters[0]?.id ?? 'none'} />
      )}
    </section>
  );
}

function Subscribers() {
  const { q, subscribers, total } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const emailsRef = useRef<HTMLTextAreaElement>(null);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const emails = subscribers.map((s) => s.email).join(', ');
  const search = q ? `?${new URLSearchParams({ q })}` : '';

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
      description: `${subscribers.length} email addresses copied to clipboard.`,
    });
  }

  return (
    <div>
      <Outlet />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <Form
          method="get"
          role="search"
          className="flex min-w-0 flex-1 items-end gap-2"
          // An explicit search (Enter or the button) replaces the pending live one.
          onSubmit={() => clearTimeout(timer.current)}
        >
          <div className="min-w-0 flex-1 space-y-1.5">
            <label htmlFor="subscriber-search" className="block text-sm font-medium">
              Search subscribers
            </label>
            <input
              id="subscriber-search"
              type="search"
              name="q"
              defaultValue={q}
              placeholder="Name or email"
              className={inputClass}
              onChange={(event) => {
                const form = event.currentTarget.form;
                clearTimeout(timer.current);
                timer.current = setTimeout(() => {
                  if (form) submit(form, { replace: true, preventScrollReset: true });
                }, 250);
              }}
            />
          </div>
          <Button type="submit" variant="outline">
            <Search aria-hidden="true" className="h-4 w-4" />
            Search
          </Button>
        </Form>
        {hydrated ? (
          <Button variant="outline" onClick={copyAll} disabled={subscribers.length === 0}>
            <Copy aria-hidden="true" className="h-4 w-4" />
            Copy All Emails
          </Button>
        ) : null}
      </div>

      <p className="mb-2 text-sm text-muted-foreground" data-testid="subscriber-count">
        {plural(subscribers.length, 'subscriber', 'subscribers')}
        {q ? ` (filtered from ${total})` : ''}
      </p>
      <p role="status" data-testid="copy-status" className="mb-2 min-h-5 text-sm font-medium">
        {copyStatus}
      </p>

      {subscribers.length > 0 ? (
        <details className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
          <summary className="cursor-pointer font-medium">
            All emails (comma-separated, to copy)
          </summary>
          <label htmlFor="subscriber-emails" className="sr-only">
            Subscriber emails, comma-separated
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
          {q ? `No subscribers match “${q}”.` : 'No subscribers yet.'}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border bg-card">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Newsletter subscribers, newest first</caption>
            <thead className="border-b border-border bg-muted/50">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Subscriber
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
      )}
    </div>
  );
}

function Compose() {
  const { total, newsletters } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending =
    navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const [form, fields] = useForm({
    id: 'compose-newsletter',
    lastResult: navigation.state === 'idle' ? actionData?.result : null,
    constraint: getZodConstraint(ComposeNewsletterSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ComposeNewsletterSchema }),
  });

  const failureTitle = actionData?.failureTitle ?? 'Failed to send newsletter';
  useToastOnce(
    form.errors?.length
      ? { type: 'error', title: failureTitle, description: form.errors.join(' ') }
      : null,
  );

  return (
    <div className="space-y-8">
      <div className="rounded-lg border border-border bg-card p-6">
        <h2 className="text-xl font-semibold">Compose Newsletter</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Addressed to all {plural(total, 'subscriber', 'subscribers')}. No mail transport is
          configured yet: the newsletter is recorded here, not emailed.
        </p>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormAlert id={form.errorId} title={failureTitle} errors={form.errors} />
          <Field label="Subject" errors={fields.subject.errors} id={fields.subject.id}>
            {(a11y) => (
              <input
                {...getInputProps(fields.subject, { type: 'text' })}
                {...a11y}
                key={fields.subject.key}
                className={inputClass}
              />
            )}
          </Field>
          <Field label="Content" errors={fields.content.errors} id={fields.content.id}>
            {(a11y) => (
              <textarea
                {...getTextareaProps(fields.content)}
                {...a11y}
                key={fields.content.key}
                rows={12}
                className={inputClass}
              />
            )}
          </Field>
          <div className="flex justify-end">
            <SubmitButton pending={pending} pendingLabel="Sending...">
              <Send aria-hidden="true" className="h-4 w-4" />
              Send Newsletter
            </SubmitButton>
          </div>
        </Form>
      </div>

      <div>
        <h2 className="mb-3 text-xl font-semibold">Recorded newsletters</h2>
        {newsletters.length === 0 ? (
          <p className="text-sm text-muted-foreground">No newsletters have been recorded yet.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-border bg-card">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Recorded newsletters, newest first</caption>
              <thead className="border-b border-border bg-muted/50">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Subject
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Recorded
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Subscribers
                  </th>
                </tr>
              </thead>
              <tbody>
                {newsletters.map((n) => (
                  <tr key={n.id} className="border-b border-border last:border-0">
                    <th scope="row" className="px-4 py-3 font-medium">
                      {n.subject}
                    </th>
                    <td className="whitespace-nowrap px-4 py-3">
                      <time dateTime={n.sentAt}>{formatMessageDate(n.sentAt)}</time>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{n.sentCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  );
}
