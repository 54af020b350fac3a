import { Link } from '@remix-run/react';

import { cn } from '~/utils/cn';
import { type ListParams, pageHref } from '~/utils/page-href';

/**
 * The pages of a list (issue 37): real links (no JavaScript needed; with it the same URLs,
 * navigated on the client), Previous and Next with `rel="prev"`/`"next"`, and compact page
 * numbers (the first, the last and the current one with its neighbours), the current one marked
 * `aria-current="page"`. Renders nothing for a list of one page.
 */
export function Pagination({
  path,
  params,
  page,
  pageCount,
  pageName = 'page',
  label = 'Pagination',
  className,
}: {
  path: string;
  params: ListParams;
  page: number;
  pageCount: number;
  /** The page parameter (`page` unless the URL holds several lists). */
  pageName?: string;
  /** The landmark's name: 'Pagination', or e.g. 'Past shows pages' when a page has two. */
  label?: string;
  className?: string;
}) {
  if (pageCount <= 1) return null;
  const href = (n: number) => pageHref(path, params, n, pageName);
  const linkClass =
    'inline-flex min-h-10 min-w-10 items-center justify-center rounded-md border border-border px-3 text-sm font-semibold transition-colors hover:border-primary hover:text-primary';
  return (
    <nav aria-label={label} className={cn('mt-12', className)}>
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {page > 1 ? (
          <li>
            <Link to={href(page - 1)} rel="prev" className={linkClass}>
              Previous<span className="sr-only"> page</span>
            </Link>
          </li>
        ) : null}
        {pageNumbers(page, pageCount).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-muted-foreground">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={href(n)}
                aria-current={n === page ? 'page' : undefined}
                className={cn(
                  linkClass,
                  n === page && 'border-primary bg-primary text-primary-foreground',
                )}
              >
                <span className="sr-only">Page </span>
                {n}
              </Link>
            </li>
          ),
        )}
        {page < pageCount ? (
          <li>
            <Link to={href(page + 1)} rel="next" className={linkClass}>
              Next<span className="sr-only"> page</span>
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** 1 … 4 5 6 … 20: the first, the last, the current page and its neighbours; null is a gap. */
export function pageNumbers(page: number, pageCount: number): (number | null)[] {
  const shown = [...new Set([1, page - 1, page, page + 1, pageCount])]
    .filter((n) => n >= 1 && n <= pageCount)
    .sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const n of shown) {
    const previous = out[out.length - 1];
    if (typeof previous === 'number' && n - previous === 2) out.push(n - 1);
    else if (typeof previous === 'number' && n - previous > 2) out.push(null);
    out.push(n);
  }
  return out;
}
