/**
 * The patches of patches/ (decision 031) are applied, and the router's match cache keeps its
 * promises: results equal to a fresh match, copies a caller may change, a bounded LRU that a
 * stream of distinct URLs cannot empty of the hot ones.
 *
 * The router checked is the one the server loads: `@remix-run/router` as
 * `@remix-run/server-runtime` resolves it. ROUTER_PACKAGE_DIR=<dir> checks another copy instead
 * (e.g. a private one before the patch is re-applied in node_modules).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type { AgnosticRouteMatch, AgnosticRouteObject } from '@remix-run/router';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);

type PatchMarker = {
  version: number;
  matchCacheSize: number;
  isMatchCached(routes: AgnosticRouteObject[], pathname: string, allowPartial?: boolean): boolean;
  cachedPaths(routes: AgnosticRouteObject[]): string[];
};
type Router = {
  matchRoutes: (
    routes: AgnosticRouteObject[],
    location: string,
  ) => AgnosticRouteMatch<string, AgnosticRouteObject>[] | null;
  UNSAFE_nightShoreRouterPatch?: PatchMarker;
};

const routerEntry = process.env.ROUTER_PACKAGE_DIR
  ? require.resolve(path.resolve(process.env.ROUTER_PACKAGE_DIR))
  : createRequire(require.resolve('@remix-run/server-runtime')).resolve('@remix-run/router');
const router = createRequire(import.meta.url)(routerEntry) as Router;
const routerVersion = (
  JSON.parse(
    fs.readFileSync(path.join(path.dirname(routerEntry), '..', 'package.json'), 'utf8'),
  ) as { version: string }
).version;

const REAPPLY =
  'Re-apply the patches: `npx patch-package` (after taking an older router patch off, see ' +
  'docs/decisions/031-framework-patches.md).';

function patchFile(name: string): string {
  const file = fs.readdirSync(path.join(root, 'patches')).find((f) => f.startsWith(`${name}+`));
  if (!file) throw new Error(`no patch for ${name} in patches/`);
  return file;
}

/** A small route tree like the site's: a root layout, static, dynamic and splat children. */
function siteRoutes(): AgnosticRouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      children: [
        { id: 'home', index: true },
        { id: 'music', path: 'music' },
        { id: 'track', path: 'music/:slug' },
        { id: 'post', path: 'blog/:year/:slug' },
        { id: 'splat', path: '*' },
      ],
    },
  ];
}

const summary = (matches: AgnosticRouteMatch<string, AgnosticRouteObject>[] | null) =>
  matches?.map((m) => ({
    id: m.route.id,
    params: { ...m.params },
    pathname: m.pathname,
    pathnameBase: m.pathnameBase,
  })) ?? null;

/** Each file a patch changes, and the lines it adds (in order), as patch-package applies them. */
function addedLines(patch: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of patch.split('\n')) {
    const file = /^\+\+\+ b\/(.+)$/.exec(line)?.[1];
    if (file) files.set(file, (current = []));
    else if (current && line.startsWith('+')) current.push(line.slice(1));
  }
  return files;
}

describe('every patch of patches/', () => {
  const patches = fs.readdirSync(path.join(root, 'patches')).filter((f) => f.endsWith('.patch'));

  it.each(patches)('%s is applied to the installed package, in its version', (file) => {
    const [, scope, name, version] = /^(@[^+]+\+)?([^+]+)\+(.+)\.patch$/.exec(file) ?? [];
    const pkg = `${scope ? scope.replace('+', '/') : ''}${name}`;
    const pkgDir =
      pkg === '@remix-run/router' && process.env.ROUTER_PACKAGE_DIR
        ? path.resolve(process.env.ROUTER_PACKAGE_DIR)
        : path.join(root, 'node_modules', pkg);
    const installed = (
      JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect(installed, `${pkg} is ${installed}: regenerate patches/${file} for it`).toBe(version);
    for (const [target, lines] of addedLines(
      fs.readFileSync(path.join(root, 'patches', file), 'utf8'),
    )) {
      const code = fs.readFileSync(
        path.join(pkgDir, target.slice(`node_modules/${pkg}/`.length)),
        'utf8',
      );
      let at = 0;
      for (const line of lines) {
        const found = code.indexOf(line, at);
        expect(found, `${target} lacks "${line.trim()}". ${REAPPLY}`).toBeGreaterThanOrEqual(0);
        at = found + line.length;
      }
    }
  });
});

describe('the router patch', () => {
  it('is applied to the router the server loads, in the version patches/ holds', () => {
    const file = patchFile('@remix-run+router');
    const wanted = /^@remix-run\+router\+(.+)\.patch$/.exec(file)?.[1];
    expect(routerVersion, `patches/${file} is for another router version: regenerate it`).toBe(
      wanted,
    );
    const marker = router.UNSAFE_nightShoreRouterPatch;
    expect(marker, `${routerEntry} is not patched. ${REAPPLY}`).toBeDefined();
    const patchVersion = Number(
      /^\+ {2}version: (\d+),$/m.exec(
        fs.readFileSync(path.join(root, 'patches', file), 'utf8'),
      )?.[1],
    );
    expect(marker!.version, `${routerEntry} carries an older patch. ${REAPPLY}`).toBe(patchVersion);
  });

  it('answers what an uncached match answers, on the first call and from the cache', () => {
    const routes = siteRoutes();
    const expected = {
      '/': [
        { id: 'root', params: {}, pathname: '/', pathnameBase: '/' },
        { id: 'home', params: {}, pathname: '/', pathnameBase: '/' },
      ],
      '/music/night%20drive': [
        { id: 'root', params: { slug: 'night drive' }, pathname: '/', pathnameBase: '/' },
        {
          id: 'track',
          params: { slug: 'night drive' },
          pathname: '/music/night drive',
          pathnameBase: '/music/night drive',
        },
      ],
      '/no/such/page': [
        { id: 'root', params: { '*': 'no/such/page' }, pathname: '/', pathnameBase: '/' },
        {
          id: 'splat',
          params: { '*': 'no/such/page' },
          pathname: '/no/such/page',
          pathnameBase: '/',
        },
      ],
    };
    for (const [url, matches] of Object.entries(expected)) {
      expect(summary(router.matchRoutes(routes, url)), url).toEqual(matches);
      expect(summary(router.matchRoutes(routes, url)), `${url} from the cache`).toEqual(matches);
    }
    expect(router.matchRoutes([{ id: 'only', path: '/a' }], '/b')).toBeNull();
  });

  it('hands out copies: changing a returned match changes no later result', () => {
    const routes = siteRoutes();
    const url = '/blog/2026/launch';
    const first = router.matchRoutes(routes, url)!;
    const want = summary(first);
    // As unpatched: the matches of one result share one params object.
    expect(first[0]!.params).toBe(first[1]!.params);

    for (let round = 0; round < 3; round++) {
      const got = router.matchRoutes(routes, url)!;
      expect(summary(got), `round ${round}`).toEqual(want);
      expect(got[0]!.params, 'one params object per result').toBe(got[1]!.params);
      expect(got, 'a new array each time').not.toBe(first);
      // Change everything a caller can reach without touching the route tree itself.
      (got[1]!.params as Record<string, string>).slug = 'changed';
      (got[0]!.params as Record<string, string>).extra = 'added';
      got[0]!.pathname = '/changed';
      got[1]!.pathnameBase = '/changed';
      got.push(got[0]!);
      got.reverse();
    }
    expect(summary(router.matchRoutes(routes, url))).toEqual(want);
  });

  it('keeps a hot URL cached while a stream of distinct URLs passes (LRU, bounded)', () => {
    const marker = router.UNSAFE_nightShoreRouterPatch;
    expect(marker, REAPPLY).toBeDefined();
    const { matchCacheSize, isMatchCached, cachedPaths } = marker!;
    const routes = siteRoutes();
    const hot = '/music/hot-track';
    router.matchRoutes(routes, hot);
    const cold = matchCacheSize * 3;
    for (let i = 0; i < cold; i++) {
      router.matchRoutes(routes, `/music/cold-${i}`);
      if (i % 100 === 99) {
        // A cache that empties itself when full has lost the hot path here at least once.
        expect(isMatchCached(routes, hot), `after ${i + 1} cold URLs`).toBe(true);
        router.matchRoutes(routes, hot);
      }
    }
    const paths = cachedPaths(routes);
    expect(paths.length, 'bounded').toBe(matchCacheSize);
    expect(paths, 'the oldest cold URLs were evicted').not.toContain('/music/cold-0');
    expect(paths).toContain(`/music/cold-${cold - 1}`);
    expect(isMatchCached(routes, hot)).toBe(true);
  });
});
