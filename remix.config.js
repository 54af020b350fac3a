/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'],
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
