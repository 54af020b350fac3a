import { Form, Link } from '@remix-run/react';

import { Search } from '~/components/admin/icons';
import { Button, buttonClass } from '~/components/ui/button';
import { InputField } from '~/components/ui/field';
import { cn } from '~/utils/cn';
import { pageHref, pageWindow } from '~/utils/page-href';

/**
 * The back office's paging and search (issue 37): real links (`?page=N`) and GET forms, so a
 * list works the same with and without JavaScript, read by the list's loader.
 */

/** Previous or Next: a link, or where there is no such page the same button dimmed. */
function EdgeLink({ to, rel, label }: { to: string | null; rel: 'prev' | 'next'; label: string }) {
  const content = (
    <>
      {label}
      <span className="sr-only"> page</span>
    </>
  );
  return to ? (
    <Link to={to} rel={rel} className={buttonClass('outline', 'sm', 'min-w-24')}>
      {content}
    </Link>
  ) : (
    <span aria-disabled="true" className={buttonClass('outline', 'sm', 'min-w-24 opacity-50')}>
      {content}
    </span>
  );
}

/**
 * Previous / numbered / Next links of a paged list; nothing when it has one page. The current
 * page is marked with `aria-current`, its neighbours with `rel="prev"` and `rel="next"`.
 */
export function AdminPagination({
  path,
  params = {},
  page,
  pageCount,
  className,
}: {
  path: string;
  /** The list's other query parameters, kept on every link (tab, search, filter). */
  params?: Record<string, string | null>;
  page: number;
  pageCount: number;
  className?: string;
}) {
  if (pageCount <= 1) return null;
  const href = (p: number) => pageHref(path, params, p);
  return (
    <nav aria-label="Pagination" className={cn('mt-6', className)} data-testid="admin-pagination">
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          <EdgeLink to={page > 1 ? href(page - 1) : null} rel="prev" label="Previous" />
        </li>
        {pageWindow(page, pageCount, { around: 2 }).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-muted-foreground">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                to={href(p)}
                aria-current={p === page ? 'page' : undefined}
                rel={p === page - 1 ? 'prev' : p === page + 1 ? 'next' : undefined}
                className={buttonClass(p === page ? 'primary' : 'ghost', 'sm', 'min-w-9')}
              >
                <span className="sr-only">Page </span>
                {p}
              </Link>
            </li>
          ),
        )}
        <li>
          <EdgeLink to={page < pageCount ? href(page + 1) : null} rel="next" label="Next" />
        </li>
      </ul>
      <p className="mt-2 text-center text-xs text-muted-foreground" data-testid="page-of">
        Page {page} of {pageCount}
      </p>
    </nav>
  );
}

/**
 * A list's search box: a GET form (`role="search"`) that keeps the list's other parameters
 * (`hidden`, e.g. the tab) and starts again at page 1.
 */
export function AdminSearchForm({
  label,
  placeholder,
  q,
  hidden = {},
  id,
}: {
  label: string;
  placeholder?: string;
  q: string;
  hidden?: Record<string, string | null>;
  id: string;
}) {
  return (
    <Form method="get" role="search" className="mb-4 flex flex-wrap items-end gap-2">
      {Object.entries(hidden).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <InputField
        label={label}
        field={{ id }}
        className="min-w-48 flex-1"
        inputProps={{ type: 'search', name: 'q', defaultValue: q, placeholder }}
      />
      <Button type="submit" variant="outline">
        <Search aria-hidden="true" className="h-4 w-4" />
        Search
      </Button>
    </Form>
  );
}
