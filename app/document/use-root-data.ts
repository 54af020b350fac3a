import { type useLoaderData, useRouteLoaderData } from '@remix-run/react';

// Type only: the root module renders the site shell, so a value import from here would
// make every component that reads root data part of an import cycle with the root.
import type { loader } from '~/root';

export type RootLoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/** Root data for components anywhere in the tree (undefined inside the root error boundary). */
export function useRootData(): RootLoaderData | undefined {
  return useRouteLoaderData<typeof loader>('root');
}
