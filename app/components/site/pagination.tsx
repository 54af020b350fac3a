import { Link } from '@remix-run/react';

import { cn } from '~/utils/cn';
import { type ListParams, pageHref, pageWindow } from '~/utils/page-href';

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
        {pageWindow(page, pageCount, { fillGaps: true }).map((n, i) =>
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
