import {
  type ErrorResponse,
  isRouteErrorResponse,
  Link,
  type Params,
  useParams,
  useRouteError,
} from '@remix-run/react';
import type { ReactNode } from 'react';

import { buttonClass } from '~/components/ui/button';
import { REQUEST_ID_ATTRIBUTE, useErrorRequestId } from '~/document/request-info';

export const NOT_FOUND_TITLE = '404 Page Not Found';
export const NOT_FOUND_HINT =
  'Did you forget to add the page to the router? The address you followed does not match any page on this site.';

/** What an error page says: a title, a text, and for the 404 page its big status number. */
export type ErrorView = { title: string; text: ReactNode; code?: number };

export type StatusHandler = (info: { error: ErrorResponse; params: Params }) => ErrorView;

const UNEXPECTED: ErrorView = {
  title: 'Something went wrong',
  text: 'An unexpected error occurred while loading this page. Please try again in a moment.',
};

/** The site's 404 page (SPEC: '404 Page Not Found' with a developer hint). */
const NOT_FOUND_PAGE: ErrorView = {
  code: 404,
  title: NOT_FOUND_TITLE,
  text: <span data-testid="not-found-hint">{NOT_FOUND_HINT}</span>,
};

/** The thrown Response's own text (written for people by app/platform/http-errors.server.ts). */
const messageOf = (error: ErrorResponse): string =>
  typeof error.data === 'string' && error.data ? error.data : error.statusText;

/** What each status says when the route has nothing more specific. */
function defaultView(error: ErrorResponse, placement: Placement): ErrorView {
  switch (error.status) {
    case 400:
      return {
        title: 'Bad request',
        text: 'The request could not be understood. Please go back and try again.',
      };
    case 404:
      return placement === 'page' ? NOT_FOUND_PAGE : { title: 'Not found', text: messageOf(error) };
    case 503:
      return {
        title: 'Something went wrong',
        text: 'This page cannot be loaded right now. Please try again in a moment.',
      };
    default:
      return error.status >= 500
        ? UNEXPECTED
        : { title: 'Something went wrong', text: messageOf(error) };
  }
}

/**
 * `page`: the route is a page of the site, shown centred under the header (the player keeps
 * playing). `panel`: an admin screen's part, shown in place inside the admin layout.
 */
type Placement = 'page' | 'panel';

/**
 * The one error boundary (decision 033), after the Epic Stack's: a thrown Response is rendered
 * by the route's handler for its status (`statusHandlers`), else by `defaultStatusHandler`;
 * anything else by `unexpectedErrorHandler`. Every error page shows the request id ("Error
 * reference"), which the server's log line carries too, and a way back.
 *
 * @example
 * export function ErrorBoundary() {
 *   return <GeneralErrorBoundary statusHandlers={{ 503: () => ({ title, text }) }} />;
 * }
 */
export function GeneralErrorBoundary({
  statusHandlers,
  defaultStatusHandler,
  unexpectedErrorHandler = () => UNEXPECTED,
  placement = 'page',
  back = { to: '/', label: 'Back to home' },
}: {
  statusHandlers?: Partial<Record<number, StatusHandler>>;
  defaultStatusHandler?: StatusHandler;
  unexpectedErrorHandler?: (error: unknown) => ErrorView;
  placement?: Placement;
  back?: { to: string; label: ReactNode };
}) {
  const error = useRouteError();
  const params = useParams();
  const requestId = useErrorRequestId();
  // On the server, entry.server's handleError has logged it with the request id.
  if (typeof document !== 'undefined' && !isRouteErrorResponse(error)) console.error(error);

  let view: ErrorView;
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers?.[error.status] ?? defaultStatusHandler;
    view = handler ? handler({ error, params }) : defaultView(error, placement);
  } else {
    view = unexpectedErrorHandler(error);
  }

  const reference = requestId ? (
    <p className="text-sm text-muted-foreground" {...{ [REQUEST_ID_ATTRIBUTE]: requestId }}>
      Error reference: <code>{requestId}</code>
    </p>
  ) : null;

  if (placement === 'panel') {
    return (
      <div role="alert" className="mb-6 rounded-lg border border-destructive/60 bg-card p-6">
        <h2 className="text-lg font-semibold">{view.title}</h2>
        <p className="mt-1 text-sm text-muted-foreground">{view.text}</p>
        {reference ? <div className="mt-2">{reference}</div> : null}
        <Link to={back.to} className={buttonClass('outline', 'sm', 'mt-4')}>
          {back.label}
        </Link>
      </div>
    );
  }
  return (
    // The 404 page is an answer, not an alert.
    <div
      role={view.code === 404 ? undefined : 'alert'}
      className="container flex min-h-[60vh] flex-col items-center justify-center gap-4 pb-16 pt-32 text-center"
    >
      {view.code ? (
        <p className="font-heading text-7xl font-bold text-primary" aria-hidden="true">
          {view.code}
        </p>
      ) : null}
      <h1 className="text-3xl font-bold md:text-4xl">{view.title}</h1>
      <p className="max-w-xl text-muted-foreground">{view.text}</p>
      {reference}
      <Link to={back.to} className={buttonClass('primary', 'md')}>
        {back.label}
      </Link>
    </div>
  );
}
