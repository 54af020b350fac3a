import { type useLoaderData, useRouteLoaderData } from '@remix-run/react';

// Type only: the root module renders the site shell, so a value import from here would
// make every component that reads root data part of an import cycle with the root.
import type { loader } from '~/root';
import { DEFAULT_SITE_NAME } from '~/utils/seo/seo';

export type RootLoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/** Root data for components anywhere in the tree (undefined inside the root error boundary). */
export function useRootData(): RootLoaderData | undefined {
  return useRouteLoaderData<typeof loader>('root');
}

/** The site name (the SITE_NAME setting) for components, as `seoSite` gives it to meta functions. */
export function useSiteName(): string {
  return useRootData()?.site.siteName ?? DEFAULT_SITE_NAME;
}
