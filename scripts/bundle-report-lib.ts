/**
 * What a first visit downloads in JavaScript, and where it comes from (`npm run bundle:report`).
 *
 * Reads what `npm run build` leaves: the browser manifest (`public/build/manifest-*.js`, the
 * modules Remix's `<Scripts>` load for the matched routes) and esbuild's metafile
 * (`build/metafile.js.json`, which source files ended up in which output and how many bytes).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export type BrowserManifest = {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { id: string; module: string; imports?: string[] }>;
};

export type Metafile = {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
};

/** The build file of a manifest URL (`/build/x.js` → `public/build/x.js`). */
export const buildFile = (url: string) => path.join('public', url.replace(/^\/+/, ''));

/**
 * The scripts a first visit loads: the client entry and, for each matched route (root first),
 * its module and the chunks it imports; each once, in that order.
 */
export function firstVisitScripts(manifest: BrowserManifest, routeIds: readonly string[]) {
  const urls = [manifest.entry.module, ...(manifest.entry.imports ?? [])];
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route "${id}" in the manifest`);
    urls.push(route.module, ...(route.imports ?? []));
  }
  return [...new Set(urls)];
}

/**
 * Who a source file belongs to: its npm package (`react-dom`, `@remix-run/router`) or, for the
 * site's own code, its path (`app/player/player-machine.ts`).
 */
export function sourceOf(input: string): string {
  const i = input.lastIndexOf('node_modules/');
  if (i < 0) return input.replace(/^browser-route-module:/, 'app/').replace(/\?browser$/, '');
  const parts = input.slice(i + 'node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** The framework: what every page needs before any of the site's code runs. */
const FRAMEWORK = new Set([
  'react',
  'react-dom',
  'scheduler',
  'react-router',
  'react-router-dom',
  '@remix-run/react',
  '@remix-run/router',
  '@remix-run/server-runtime',
  'turbo-stream',
]);
export const isFramework = (source: string) => FRAMEWORK.has(source);

export const gzipSize = (bytes: Buffer) => zlib.gzipSync(bytes, { level: 9 }).length;

export type ScriptRow = { url: string; raw: number; gzip: number; sources: [string, number][] };

export type BundleReport = {
  scripts: ScriptRow[];
  /** Gzipped bytes of every script, added up (what the browser downloads). */
  gzip: number;
  /** Gzipped, if the same code were one file (what splitting it into chunks costs). */
  gzipAsOneFile: number;
  /** Minified bytes per source, framework and the site's own. */
  sources: { source: string; bytes: number; framework: boolean }[];
};

export function bundleReport(
  manifest: BrowserManifest,
  metafile: Metafile,
  routeIds: readonly string[],
  read: (file: string) => Buffer = (file) => fs.readFileSync(file),
): BundleReport {
  const files = firstVisitScripts(manifest, routeIds).map((url) => ({ url, file: buildFile(url) }));
  const bodies = files.map(({ file }) => read(file));
  const totals = new Map<string, number>();
  const scripts = files.map(({ url, file }, i): ScriptRow => {
    const inputs = metafile.outputs[file]?.inputs ?? {};
    const bySource = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const source = sourceOf(input);
      bySource.set(source, (bySource.get(source) ?? 0) + bytesInOutput);
      totals.set(source, (totals.get(source) ?? 0) + bytesInOutput);
    }
    const body = bodies[i]!;
    return {
      url,
      raw: body.length,
      gzip: gzipSize(body),
      sources: [...bySource].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]),
    };
  });
  return {
    scripts,
    gzip: scripts.reduce((n, s) => n + s.gzip, 0),
    gzipAsOneFile: gzipSize(Buffer.concat(bodies)),
    sources: [...totals]
      .filter(([, n]) => n > 0)
      .map(([source, bytes]) => ({ source, bytes, framework: isFramework(source) }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export function formatReport(report: BundleReport, routeIds: readonly string[]): string {
  const lines = [`First visit (${routeIds.join(' + ')}): ${report.scripts.length} scripts`];
  const frameworkScripts = report.scripts.filter((s) =>
    s.sources.some(([source]) => source === 'react-dom'),
  );
  const frameworkGzip = frameworkScripts.reduce((n, s) => n + s.gzip, 0);
  lines.push(
    `  gzipped, as downloaded   ${kb(report.gzip).padStart(9)}`,
    `  of it the framework chunk${kb(frameworkGzip).padStart(9)}  (React DOM, React Router, Remix)`,
    `  the site's own chunks    ${kb(report.gzip - frameworkGzip).padStart(9)}  in ${report.scripts.length - frameworkScripts.length} files`,
    `  the same code as one file${kb(report.gzipAsOneFile).padStart(9)}`,
    '',
    'scripts (gzipped, minified, largest sources):',
  );
  for (const s of [...report.scripts].sort((a, b) => b.gzip - a.gzip)) {
    const top = s.sources
      .slice(0, 3)
      .map(([source, n]) => `${source} ${kb(n)}`)
      .join(', ');
    lines.push(`  ${kb(s.gzip).padStart(9)} ${kb(s.raw).padStart(9)}  ${s.url}  ${top}`);
  }
  const minified = (framework: boolean) =>
    report.sources.filter((s) => s.framework === framework).reduce((n, s) => n + s.bytes, 0);
  lines.push(
    '',
    `sources (minified bytes): framework ${kb(minified(true))}, site ${kb(minified(false))}`,
  );
  for (const s of report.sources) {
    lines.push(
      `  ${kb(s.bytes).padStart(9)}  ${s.framework ? 'framework' : 'site     '}  ${s.source}`,
    );
  }
  return lines.join('\n');
}

/** The browser manifest the last build wrote (`window.__remixManifest={…};`). */
export function readBuildManifest(dir = 'public/build'): BrowserManifest {
  // The newest, should an older build's manifest still be there.
  const [name] = fs
    .readdirSync(dir)
    .filter((f) => /^manifest-[A-Z0-9]+\.js$/.test(f))
    .sort(
      (a, b) => fs.statSync(path.join(dir, b)).mtimeMs - fs.statSync(path.join(dir, a)).mtimeMs,
    );
  if (!name) throw new Error(`no manifest in ${dir}: run \`npm run build\` first`);
  const text = fs.readFileSync(path.join(dir, name), 'utf8');
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  return JSON.parse(json) as BrowserManifest;
}
