import { fileURLToPath } from 'node:url';

import { flatRoutes } from 'remix-flat-routes';

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Routes are read by remix-flat-routes (decision 052): app/routes has a folder per surface,
  // `admin+/tracks.$id.edit.tsx` is the flat route `admin.tracks.$id.edit`, a `_group+/` folder
  // adds nothing to the URL. Remix's own scan is off, so it does not read the folders its way.
  ignoredRouteFiles: ['**/*'],
  routes: async (defineRoutes) =>
    flatRoutes('routes', defineRoutes, {
      appDir: fileURLToPath(new URL('./app', import.meta.url)),
      ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'],
    }),
  serverModuleFormat: 'esm',
  serverPlatform: 'node',
  tailwind: true,
  postcss: true,
  // Bundled so the classic compiler can handle their ESM-only builds; the embedded store (an npm
  // workspace, embedded-mongo/) is TypeScript source that Node cannot import as is.
  serverDependenciesToBundle: [/^remix-auth/, /^@conform-to\//, /^@night-shore\/embedded-mongo$/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
