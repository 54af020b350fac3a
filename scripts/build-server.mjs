/**
 * Compiles what production runs besides the Remix build into plain JavaScript, so no process
 * of the site loads TypeScript at run time (decision 040):
 *
 *   build/server.js        server/index.ts (the HTTP server, decision 013; the cluster primary)
 *   build/media-thread.js  app/media/transcode-thread.ts (a media job's worker thread, 035)
 *   build/db.js            embedded-mongo/cli.ts (`npm run db`, the standalone store)
 *
 * Under tsx (`node --import tsx …`) Node runs tsx's module hooks on a loader thread of their
 * own, with its own V8 heap, in every process and in every worker thread that registers them;
 * the sources and inline source maps tsx produces stay in memory as well. Compiled ahead, the
 * server idles about 100 MB smaller (decision 040's figures).
 *
 * Packages stay imports from node_modules (one copy of each module, as under tsx), except the
 * embedded store (an npm workspace whose `exports` is TypeScript source), which is bundled, as
 * the Remix build bundles it. Source maps are written next to each file.
 *
 *   node scripts/build-server.mjs        (part of `npm run build`; `npm start` runs it too)
 *   import { buildServer } from './build-server.mjs'; await buildServer();
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The entry points, by output name (under build/). */
export const SERVER_ENTRIES = {
  server: 'server/index.ts',
  'media-thread': 'app/media/transcode-thread.ts',
  db: 'embedded-mongo/cli.ts',
};

/** Every bare import stays external but the embedded store's workspace package. */
const packagesFromNodeModules = {
  name: 'packages-from-node-modules',
  /** @param {import('esbuild').PluginBuild} pluginBuild */
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./~]/ }, (args) =>
      args.path.startsWith('@night-shore/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Write build/server.js, build/media-thread.js and build/db.js (and their source maps).
 * @param {{ root?: string }} [options]
 */
export async function buildServer(options = {}) {
  const cwd = options.root ?? root;
  await build({
    absWorkingDir: cwd,
    entryPoints: SERVER_ENTRIES,
    outdir: 'build',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: 'tsconfig.json',
    sourcemap: 'linked',
    legalComments: 'none',
    plugins: [packagesFromNodeModules],
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
