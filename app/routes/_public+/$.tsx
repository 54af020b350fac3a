import type { MetaFunction } from '@remix-run/node';

import { GeneralErrorBoundary, NOT_FOUND_TITLE } from '~/components/site/general-error-boundary';
import { notFound } from '~/platform/http-errors.server';

/**
 * Every path no other route matches: a 404 for GET and for POST (and any other method), shown
 * inside the site layout by this route's boundary, so the player keeps playing.
 */
export async function loader() {
  throw notFound();
}

export async function action() {
  throw notFound();
}

export const meta: MetaFunction = () => [
  { title: NOT_FOUND_TITLE },
  { name: 'robots', content: 'noindex' },
];

export default function NotFoundRoute() {
  // Never rendered: the loader always throws.
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
