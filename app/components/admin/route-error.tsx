import { Link, isRouteErrorResponse, useRouteError } from '@remix-run/react';
import { buttonClass } from '~/components/ui/button';
import { errorMessage } from '~/utils/error-message';

/**
 * A route's error boundary inside the admin layout: a missing item (404) or a failure
 * renders in place, with a way back, instead of replacing the whole document.
 */
export function AdminRouteError({ backTo, backLabel }: { backTo: string; backLabel: string }) {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const message = isRouteErrorResponse(error)
    ? typeof error.data === 'string'
      ? error.data
      : error.statusText
    : errorMessage(error);
  return (
    <div role="alert" className="mb-6 rounded-lg border border-destructive/60 bg-card p-6">
      <h2 className="text-lg font-semibold">{notFound ? 'Not found' : 'Something went wrong'}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{message}</p>
      <Link to={backTo} className={buttonClass('outline', 'sm', 'mt-4')}>
        {backLabel}
      </Link>
    </div>
  );
}
