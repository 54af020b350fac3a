import { describe, expect, it } from 'vitest';

import {
  type BrowserManifest,
  bundleReport,
  firstVisitScripts,
  formatReport,
  gzipSize,
  type Metafile,
  sourceOf,
} from './bundle-report-lib';

const manifest: BrowserManifest = {
  entry: { module: '/build/entry.client-A.js', imports: ['/build/_shared/chunk-FW.js'] },
  routes: {
    root: {
      id: 'root',
      module: '/build/root-B.js',
      imports: ['/build/_shared/chunk-FW.js', '/build/_shared/chunk-UI.js'],
    },
    'routes/_public+/_index': {
      id: 'routes/_public+/_index',
      module: '/build/routes/_index-C.js',
      imports: ['/build/_shared/chunk-UI.js'],
    },
    'routes/_public+/music': { id: 'routes/_public+/music', module: '/build/routes/music-D.js' },
  },
};

describe('the bundle report', () => {
  it('lists the entry, then each route with its chunks, each script once', () => {
    expect(firstVisitScripts(manifest, ['root', 'routes/_public+/_index'])).toEqual([
      '/build/entry.client-A.js',
      '/build/_shared/chunk-FW.js',
      '/build/root-B.js',
      '/build/_shared/chunk-UI.js',
      '/build/routes/_index-C.js',
    ]);
    expect(() => firstVisitScripts(manifest, ['root', 'routes/nope'])).toThrow(/routes\/nope/);
  });

  it('names a source by its package, or by its path for the site’s own code', () => {
    expect(sourceOf('node_modules/react-dom/cjs/react-dom.production.min.js')).toBe('react-dom');
    expect(sourceOf('node_modules/@remix-run/router/dist/router.js')).toBe('@remix-run/router');
    expect(sourceOf('../node_modules/.pnpm/x/node_modules/turbo-stream/dist/a.mjs')).toBe(
      'turbo-stream',
    );
    expect(sourceOf('app/player/player-machine.ts')).toBe('app/player/player-machine.ts');
    expect(sourceOf('browser-route-module:routes/_public+/_index.tsx?browser')).toBe(
      'app/routes/_public+/_index.tsx',
    );
  });

  it('adds up gzipped scripts and minified sources, framework apart from the site', () => {
    const bodies: Record<string, Buffer> = {
      'public/build/entry.client-A.js': Buffer.from('import "./x";'.repeat(3)),
      'public/build/_shared/chunk-FW.js': Buffer.from('var react=1;'.repeat(200)),
      'public/build/root-B.js': Buffer.from('function Header(){}'.repeat(20)),
      'public/build/_shared/chunk-UI.js': Buffer.from('function Card(){}'.repeat(10)),
      'public/build/routes/_index-C.js': Buffer.from('function Home(){}'.repeat(5)),
    };
    const metafile: Metafile = {
      outputs: {
        'public/build/_shared/chunk-FW.js': {
          bytes: 2400,
          inputs: {
            'node_modules/react-dom/index.js': { bytesInOutput: 2000 },
            'node_modules/react/index.js': { bytesInOutput: 400 },
          },
        },
        'public/build/root-B.js': {
          bytes: 380,
          inputs: {
            'app/root.tsx': { bytesInOutput: 300 },
            'node_modules/react/index.js': { bytesInOutput: 0 },
          },
        },
        'public/build/_shared/chunk-UI.js': {
          bytes: 170,
          inputs: { 'app/components/card.tsx': { bytesInOutput: 170 } },
        },
      },
    };
    const report = bundleReport(
      manifest,
      metafile,
      ['root', 'routes/_public+/_index'],
      (f) => bodies[f]!,
    );
    expect(report.scripts.map((s) => s.url)).toHaveLength(5);
    const gz = Object.values(bodies).reduce((n, b) => n + gzipSize(b), 0);
    expect(report.gzip).toBe(gz);
    expect(report.gzipAsOneFile).toBe(gzipSize(Buffer.concat(Object.values(bodies))));
    expect(report.sources).toEqual([
      { source: 'react-dom', bytes: 2000, framework: true },
      { source: 'react', bytes: 400, framework: true },
      { source: 'app/root.tsx', bytes: 300, framework: false },
      { source: 'app/components/card.tsx', bytes: 170, framework: false },
    ]);
    const text = formatReport(report, ['root', 'routes/_public+/_index']);
    expect(text).toContain('First visit (root + routes/_public+/_index): 5 scripts');
    expect(text).toMatch(/framework chunk\s+[\d.]+ KB/);
    expect(text).toContain("the site's own chunks");
  });
});
