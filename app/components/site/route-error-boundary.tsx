import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react';
import { buttonClass } from '~/components/ui/button';

export const NOT_FOUND_TITLE = '404 Page Not Found';
export const NOT_FOUND_HINT =
  'Did you forget to add the page to the router? The address you followed does not match any page on this site.';

/** The 404 page body, shared by the splat route and route boundaries. */
export function NotFoundContent() {
  return (
    <div className="container flex min-h-[60vh] flex-col items-center justify-center gap-4 pb-16 pt-32 text-center">
      <p className="font-heading text-7xl font-bold text-primary" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-bold md:text-4xl">{NOT_FOUND_TITLE}</h1>
      <p className="max-w-xl text-muted-foreground" data-testid="not-found-hint">
        {NOT_FOUND_HINT}
      </p>
      <Link to="/" className={buttonClass('primary', 'md')}>
        Back to home
      </Link>
    </div>
  );
}

/**
 * A per-route error boundary: it renders inside the root layout, so the header, the footer
 * and the player (with its <audio>) stay mounted when a page fails.
 */
export function RouteErrorBoundary({
  notFound,
}: {
  /** What to render for a 404 thrown by this route (default: the generic 404 page). */
  notFound?: React.ReactNode;
}) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <>{notFound ?? <NotFoundContent />}</>;
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <div
      role="alert"
      className="container flex min-h-[60vh] flex-col items-center justify-center gap-4 pb-16 pt-32 text-center"
    >
      <h1 className="text-3xl font-bold">
        {status === 400 ? 'Bad request' : 'Something went wrong'}
      </h1>
      <p className="max-w-xl text-muted-foreground">
        {status === 400
          ? 'The request could not be understood. Please go back and try again.'
          : 'An unexpected error occurred while loading this page. Please try again in a moment.'}
      </p>
      <Link to="/" className={buttonClass('primary', 'md')}>
        Back to home
      </Link>
    </div>
  );
}
